/// The fields of one proto message that `FCMSendRequestFastDecoder` handles, found by a key's
/// raw bytes in either spelling (snake_case or lowerCamelCase).
///
/// Built from `FCMSchema`, so the two paths cannot disagree on a field's names; the decoder's
/// `Key` enums name fields by their proto name.
struct FCMFastKeyTable<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    /// One way to write a field's name. Most names fit in 8 bytes, so most keys are told apart
    /// by one comparison of `prefix` and `count`; only longer ones compare `rest` as well. Plain
    /// words rather than an array of bytes: the search then copies no reference per spelling.
    private struct Spelling: Sendable {
        let prefix: UInt64
        let count: Int
        /// Bytes 8 to 31, as `prefix` holds bytes 0 to 7.
        let rest: (UInt64, UInt64, UInt64)
        let position: Int
    }

    /// The longest name a table holds: the field names of FCM's messages are at most 24 bytes.
    private static var maxCount: Int { 32 }

    private let spellings: [Spelling]
    /// The fields, in the order of the proto message.
    let keys: [Key]

    init(_ type: FCMProtoMessage) {
        var spellings: [Spelling] = [], keys: [Key] = []
        for field in type.fields {
            guard let key = Key(rawValue: field.name) else { continue }
            for spelling in Set([field.name, field.jsonName]) {
                let bytes = Array(spelling.utf8)
                precondition(bytes.count <= Self.maxCount, "a fast-path key of \(type.name) is too long")
                let spelling = bytes.withUnsafeBytes {
                    Spelling(prefix: Self.prefix(of: $0), count: $0.count, rest: Self.rest(of: $0), position: keys.count)
                }
                spellings.append(spelling)
            }
            keys.append(key)
        }
        precondition(keys.count == Key.allCases.count, "a fast-path key is not a field of \(type.name)")
        self.spellings = spellings
        self.keys = keys
    }

    /// The first 8 bytes (fewer for a shorter key), little end first.
    static func prefix(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        if bytes.count >= 8 { return bytes.loadUnaligned(as: UInt64.self) }
        var word: UInt64 = 0
        for index in 0..<bytes.count { word |= UInt64(bytes[index]) << (8 * index) }
        return word
    }

    /// Bytes 8 to 31, little end first, zero past the end. A word cut short by the end is read as
    /// the word ending there, shifted down: a key longer than 8 bytes holds it.
    private static func rest(of bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64) {
        let count = bytes.count
        guard count > 8 else { return (0, 0, 0) }
        func word(at offset: Int) -> UInt64 {
            if count >= offset + 8 { return bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            guard count > offset else { return 0 }
            return bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> (8 * UInt64(offset + 8 - count))
        }
        return (word(at: 8), word(at: 16), word(at: 24))
    }

    /// The position in `keys` of the field `bytes` names, or nil for a key the table does not hold;
    /// `prefix` is `prefix(of: bytes)`, which the caller may have read faster.
    @inline(__always)
    func position(of bytes: UnsafeRawBufferPointer, prefix: UInt64) -> Int? {
        guard bytes.count <= Self.maxCount else { return nil }
        for spelling in spellings where spelling.prefix == prefix && spelling.count == bytes.count {
            if bytes.count <= 8 || spelling.rest == Self.rest(of: bytes) { return spelling.position }
        }
        return nil
    }
}
