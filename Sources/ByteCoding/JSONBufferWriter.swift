/// JSON output into a buffer sized in advance, through a pointer: an array checks its uniqueness
/// and capacity on every append, which cost more than the bytes written when a payload is built
/// from many short pieces.
///
/// What does not fit is counted but not written, so that a writer that ran out of room tells how
/// large a buffer the same writes need.
public struct JSONBufferWriter: JSONOutput {
    @usableFromInline let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far, or that would have been, past the end included.
    @inlinable
    public var count: Int { counted }
    @usableFromInline var counted = 0

    /// A writer that starts at the beginning of `buffer`.
    @inlinable
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// The bytes `write` writes, in an array of their size: written on the stack first, in
    /// `capacity` bytes, and copied once; written again at the size the first pass counted when
    /// they did not fit, which costs less than working out every output's size in advance.
    @inlinable
    public static func bytes(capacity: Int, _ write: (inout JSONBufferWriter) -> Void) -> [UInt8] {
        var capacity = capacity
        while true {
            let (bytes, needed) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
                var output = JSONBufferWriter(scratch)
                write(&output)
                return (output.overflowed ? nil : Array(output.written), output.count)
            }
            if let bytes { return bytes }
            capacity = needed
        }
    }

    /// Whether some writes did not fit, so that the buffer holds only part of the output.
    @inlinable
    public var overflowed: Bool { counted > buffer.count }

    /// The bytes written, valid while the buffer is.
    @inlinable
    public var written: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[..<min(counted, buffer.count)])
    }

    /// Takes back the last byte written. After an overflow the count still tells the size
    /// needed: what follows cannot fit either, and ends past the end.
    @inlinable
    public mutating func removeLast() {
        counted -= 1
    }

    /// Appends one byte, or counts it when it does not fit.
    @inlinable
    public mutating func appendByte(_ byte: UInt8) {
        // A buffer with room for a byte has an address.
        if counted < buffer.count { buffer.baseAddress.unsafelyUnwrapped[counted] = byte }
        counted += 1
    }

    /// Appends a run of bytes, or counts them when they do not fit.
    @inlinable
    public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let source = bytes.baseAddress, counted + bytes.count <= buffer.count {
            UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped + counted).copyMemory(from: source, byteCount: bytes.count)
        }
        counted += bytes.count
    }
}
