extension JSONReader {
    /// Reads the key at `index` (whitespace before it skipped) when it is plain ASCII without
    /// escapes, and gives its bytes in `bytes` and `ShortKeyTable.prefix(of:)` of them, for a
    /// decoder that knows its keys in advance to look the key up without making a string.
    /// Nil for any other key, or when no string comes next: the general parser is then the one
    /// to read it, and tell what is wrong.
    @inlinable @inline(__always)
    public mutating func readPlainKey() -> (key: UnsafeRawBufferPointer, prefix: UInt64)? {
        skipWhitespace()
        // Local copies: the loop then runs in registers rather than through the reader.
        let bytes = self.bytes
        let start = index &+ 1
        // Most keys are shorter than 8 bytes: one word holds the key and its closing quote, and
        // is the key's prefix once the quote and what follows are masked off. A word in the
        // buffer past the opening quote also puts the quote itself in it.
        if start &+ 8 <= bytes.count {
            let base = bytes.baseAddress.unsafelyUnwrapped
            guard base.load(fromByteOffset: start &- 1, as: UInt8.self) == UInt8(ascii: "\"") else { return nil }
            let word = base.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            // The lowest byte flagged is exactly the first quote, backslash, control character or
            // non-ASCII byte: the key is plain when it is the closing quote.
            let flags = JSONStringBytes.lookFlags(word)
            if flags != 0 {
                let count = WordBytes.firstFlaggedByte(in: flags)
                guard base.load(fromByteOffset: start &+ count, as: UInt8.self) == UInt8(ascii: "\"") else { return nil }
                index = start &+ count &+ 1
                return (UnsafeRawBufferPointer(start: base + start, count: count), WordBytes.firstBytes(of: word, count: count))
            }
        }
        // Out of line: a decoder that inlines this function then stays small enough for the
        // compiler to inline its lookup of the key as well (see docs/ARCHITECTURE.md, ByteCoding).
        return readLongPlainKey()
    }

    /// `readPlainKey()` for a key of 8 bytes or more, or one that ends too near the end of the
    /// document for a whole word to be read past its opening quote.
    @usableFromInline @inline(never)
    mutating func readLongPlainKey() -> (key: UnsafeRawBufferPointer, prefix: UInt64)? {
        let bytes = self.bytes
        let start = index &+ 1
        // Longer keys (`notification`, `validate_only`): whole words first, as the reader skips strings.
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var end = start
        while end + 8 <= bytes.count, !JSONStringBytes.needsLook(bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)) {
            end += 8
        }
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        let key = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        index = end + 1
        return (key, ShortKeyTable.prefix(of: key))
    }
}
