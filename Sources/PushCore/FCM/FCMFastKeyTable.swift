import ByteCoding

/// The fields of one proto message that `FCMSendRequestFastDecoder` handles, found by a key's
/// raw bytes in either spelling (snake_case or lowerCamelCase).
///
/// Built from `FCMSchema`, so the two paths cannot disagree on a field's names; the decoder's
/// `Key` enums name fields by their proto name.
struct FCMFastKeyTable<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    /// Both spellings of each field, at the field's position in `keys`.
    private let table: ShortKeyTable
    /// The fields, in the order of the proto message.
    let keys: [Key]

    init(_ type: FCMProtoMessage) {
        var spellings: [(spelling: String, position: Int)] = [], keys: [Key] = []
        for field in type.fields {
            guard let key = Key(rawValue: field.name) else { continue }
            for spelling in Set([field.name, field.jsonName]) {
                precondition(spelling.utf8.count <= ShortKeyTable.maxCount, "a fast-path key of \(type.name) is too long")
                spellings.append((spelling, keys.count))
            }
            keys.append(key)
        }
        precondition(keys.count == Key.allCases.count, "a fast-path key is not a field of \(type.name)")
        self.table = ShortKeyTable(spellings)
        self.keys = keys
    }

    /// The position in `keys` of the field `bytes` names, or nil for a key the table does not hold;
    /// `prefix` is `ShortKeyTable.prefix(of: bytes)`, which the caller may have read faster.
    @inline(__always)
    func position(of bytes: UnsafeRawBufferPointer, prefix: UInt64) -> Int? {
        table.position(of: bytes, prefix: prefix)
    }
}
