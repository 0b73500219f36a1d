/// Where `JSONSerializer` writes: a growing byte array, or a `JSONBufferWriter`'s buffer sized
/// in advance. One escaper serves both.
public protocol JSONOutput {
    /// Appends one byte.
    mutating func appendByte(_ byte: UInt8)
    /// Appends a run of bytes.
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: JSONOutput where Element == UInt8 {
    /// Appends one byte.
    @inlinable
    public mutating func appendByte(_ byte: UInt8) { append(byte) }

    /// Appends a run of bytes.
    @inlinable
    public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}
