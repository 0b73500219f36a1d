/// Where `JSONSerializer` writes: a growing byte array, or a `JSONBufferWriter`'s buffer sized
/// in advance. One escaper serves both.
public protocol JSONOutput {
    /// Appends one byte.
    mutating func appendByte(_ byte: UInt8)
    /// Appends a run of bytes.
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Appends the first `count` bytes (at most 24) of `words` in memory order: a short string
    /// quoted in registers.
    mutating func appendWords(_ words: (UInt64, UInt64, UInt64), count: Int)
    /// `String.smallASCIIFormHolds`, for the serializer to read strings' inline form by: an
    /// output written on every request reads it once when made, not through its lazy accessor
    /// per string.
    var readsSmallStrings: Bool { get }
}

extension Array: JSONOutput where Element == UInt8 {
    /// `String.smallASCIIFormHolds`.
    @inlinable
    public var readsSmallStrings: Bool { String.smallASCIIFormHolds }

    /// Appends one byte.
    @inlinable
    public mutating func appendByte(_ byte: UInt8) { append(byte) }

    /// Appends a run of bytes.
    @inlinable
    public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }

    /// Appends the first `count` bytes of `words`.
    @inlinable
    public mutating func appendWords(_ words: (UInt64, UInt64, UInt64), count: Int) {
        Swift.withUnsafeBytes(of: words) { append(contentsOf: $0.bindMemory(to: UInt8.self)[..<count]) }
    }
}
