/// JSON output into a buffer sized in advance, through a pointer: an array checks its uniqueness
/// and capacity on every append, which cost more than the bytes written when a payload is built
/// from many short pieces.
///
/// What does not fit is counted but not written, so that a writer that ran out of room tells how
/// large a buffer the same writes need.
struct JSONBufferWriter: JSONOutput {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far, or that would have been, past the end included.
    private(set) var count = 0
    let readsSmallStrings: Bool

    /// A writer that starts at the beginning of `buffer`.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
        readsSmallStrings = String.smallASCIIFormHolds
    }

    /// Whether some writes did not fit, so that the buffer holds only part of the output.
    var overflowed: Bool { count > buffer.count }

    /// The bytes written, valid while the buffer is.
    var written: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[..<min(count, buffer.count)])
    }

    /// Takes back the last byte written. After an overflow the count still tells the size
    /// needed: what follows cannot fit either, and ends past the end.
    mutating func removeLast() {
        count -= 1
    }

    mutating func appendByte(_ byte: UInt8) {
        // A buffer with room for a byte has an address.
        if count < buffer.count { buffer.baseAddress.unsafelyUnwrapped[count] = byte }
        count += 1
    }

    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        if let source = bytes.baseAddress, length > 0, count + length <= buffer.count {
            let target = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped + count)
            // Most runs are short (a literal key, a string's bytes): copied as a few words that
            // overlap rather than through `memmove`, whose call and checks cost more than the
            // copy. Inline, a literal's length is known and only its own case is left.
            if length <= 32 {
                Self.copyShort(UnsafeRawPointer(source), length, to: target)
            } else {
                target.copyMemory(from: source, byteCount: length)
            }
        }
        count += length
    }

    /// Copies `length` bytes (1 to 32): the first and the last word of the size that fits,
    /// overlapping in the middle, both read before either is written.
    @inline(__always)
    private static func copyShort(_ source: UnsafeRawPointer, _ length: Int, to target: UnsafeMutableRawPointer) {
        if length >= 16 {
            let first = (source.loadUnaligned(as: UInt64.self), source.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let last = (
                source.loadUnaligned(fromByteOffset: length - 16, as: UInt64.self),
                source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            )
            target.storeBytes(of: first.0, as: UInt64.self)
            target.storeBytes(of: first.1, toByteOffset: 8, as: UInt64.self)
            target.storeBytes(of: last.0, toByteOffset: length - 16, as: UInt64.self)
            target.storeBytes(of: last.1, toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 8 {
            let first = source.loadUnaligned(as: UInt64.self), last = source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: last, toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 4 {
            let first = source.loadUnaligned(as: UInt32.self), last = source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            target.storeBytes(of: first, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: length - 4, as: UInt32.self)
        } else {
            for offset in 0..<length {
                target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
            }
        }
    }

    @inline(__always)
    mutating func appendWords(_ words: (UInt64, UInt64, UInt64), count wordBytes: Int) {
        if count + 24 <= buffer.count {
            // All three words, with the bytes past `wordBytes` overwritten later or never read:
            // three stores instead of a copy.
            let target = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped + count)
            target.storeBytes(of: words.0, as: UInt64.self)
            target.storeBytes(of: words.1, toByteOffset: 8, as: UInt64.self)
            target.storeBytes(of: words.2, toByteOffset: 16, as: UInt64.self)
            count += wordBytes
        } else {
            withUnsafeBytes(of: words) { appendBytes(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<wordBytes])) }
        }
    }
}
