/// A few short ASCII keys (at most 32 bytes each), each at a position, found by a key's raw
/// bytes: for decoders that know the keys of an object in advance.
///
/// Most keys fit in 8 bytes, so most are told apart by one comparison of their first word and
/// their length; only longer ones compare the rest as well. Plain words rather than arrays of
/// bytes: a search then copies no reference per key.
public struct ShortKeyTable: Sendable {
    @usableFromInline
    struct Spelling: Sendable {
        @usableFromInline let prefix: UInt64
        @usableFromInline let count: Int
        /// Bytes 8 to 31, as `prefix` holds bytes 0 to 7.
        @usableFromInline let rest: (UInt64, UInt64, UInt64)
        @usableFromInline let position: Int
    }

    /// The longest key a table holds.
    @inlinable
    public static var maxCount: Int { 32 }

    @usableFromInline let spellings: [Spelling]

    /// A table of `keys`, each found at its `position`; a position may have several spellings.
    /// Each key is at most `maxCount` bytes long.
    public init(_ keys: [(spelling: String, position: Int)]) {
        spellings = keys.map { key in
            let bytes = Array(key.spelling.utf8)
            precondition(bytes.count <= Self.maxCount, "the key \(key.spelling) is too long for a ShortKeyTable")
            return bytes.withUnsafeBytes {
                Spelling(prefix: Self.prefix(of: $0), count: $0.count, rest: Self.rest(of: $0), position: key.position)
            }
        }
    }

    /// The first 8 bytes of `bytes` (fewer for a shorter key), the first in the lowest byte,
    /// zero past the end.
    public static func prefix(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        if bytes.count >= 8 { return bytes.loadUnaligned(as: UInt64.self) }
        var word: UInt64 = 0
        for index in 0..<bytes.count { word |= UInt64(bytes[index]) << (8 * index) }
        return word
    }

    /// Bytes 8 to 31, little end first, zero past the end. A word cut short by the end is read as
    /// the word ending there, shifted down: a key longer than 8 bytes holds it.
    @inlinable
    static func rest(of bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64) {
        let count = bytes.count
        guard count > 8 else { return (0, 0, 0) }
        @inline(__always)  // three calls per long key: no call for each
        func word(at offset: Int) -> UInt64 {
            if count >= offset + 8 { return bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            guard count > offset else { return 0 }
            return bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> (8 * UInt64(offset + 8 - count))
        }
        return (word(at: 8), word(at: 16), word(at: 24))
    }

    /// The position of the key `bytes`, or nil for a key the table does not hold; `prefix` is
    /// `prefix(of: bytes)`, which the caller may have read faster.
    @inlinable @inline(__always)
    public func position(of bytes: UnsafeRawBufferPointer, prefix: UInt64) -> Int? {
        let count = bytes.count
        // Most keys are short: their search compares one word and the length, and a caller that
        // knows the key is short (`JSONReader.readPlainKey()`'s first word) keeps only this loop.
        if count <= 8 {
            for spelling in spellings where spelling.prefix == prefix && spelling.count == count {
                return spelling.position
            }
            return nil
        }
        guard count <= Self.maxCount else { return nil }
        let rest = Self.rest(of: bytes)
        for spelling in spellings where spelling.prefix == prefix && spelling.count == count && spelling.rest == rest {
            return spelling.position
        }
        return nil
    }
}
