/// The fields of one proto message that `FCMSendRequestFastDecoder` handles, found by a key's
/// raw bytes in either spelling (snake_case or lowerCamelCase).
///
/// Built from `FCMSchema`, so the two paths cannot disagree on a field's names; the decoder's
/// `Key` enums name fields by their proto name.
struct FCMFastKeyTable<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    /// One way to write a field's name. Most names fit in 8 bytes, so most keys are told apart
    /// by one comparison of `prefix` and `count`; only longer ones compare `rest` as well.
    private struct Spelling: Sendable {
        let prefix: UInt64
        let count: Int
        let rest: [UInt8]
        let position: Int
    }

    private let spellings: [Spelling]
    /// The fields, in the order of the proto message.
    let keys: [Key]

    init(_ type: FCMProtoMessage) {
        var spellings: [Spelling] = [], keys: [Key] = []
        for field in type.fields {
            guard let key = Key(rawValue: field.name) else { continue }
            for spelling in Set([field.name, field.jsonName]) {
                let bytes = Array(spelling.utf8)
                let prefix = bytes.withUnsafeBytes { Self.prefix(of: $0) }
                spellings.append(
                    Spelling(prefix: prefix, count: bytes.count, rest: Array(bytes.dropFirst(8)), position: keys.count))
            }
            keys.append(key)
        }
        precondition(keys.count == Key.allCases.count, "a fast-path key is not a field of \(type.name)")
        self.spellings = spellings
        self.keys = keys
    }

    /// The first 8 bytes (fewer for a shorter key), little end first.
    static func prefix(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        var prefix: UInt64 = 0
        for index in 0..<min(bytes.count, 8) { prefix |= UInt64(bytes[index]) << (8 * index) }
        return prefix
    }

    /// The position in `keys` of the field `bytes` names, or nil for a key the table does not hold;
    /// `prefix` is `prefix(of: bytes)`, which the caller may have read faster.
    func position(of bytes: UnsafeRawBufferPointer, prefix: UInt64) -> Int? {
        search: for spelling in spellings where spelling.prefix == prefix && spelling.count == bytes.count {
            for (offset, byte) in spelling.rest.enumerated() where bytes[8 + offset] != byte { continue search }
            return spelling.position
        }
        return nil
    }
}
