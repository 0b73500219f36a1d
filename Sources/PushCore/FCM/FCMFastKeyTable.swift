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
        var spellings: [(spelling: String, position: Int, rank: Int)] = [], keys: [Key] = []
        let ranks = Key.allCases.map(\.rawValue)
        for field in type.fields {
            guard let key = Key(rawValue: field.name), let rank = ranks.firstIndex(of: field.name) else { continue }
            for spelling in field.jsonName == field.name ? [field.name] : [field.name, field.jsonName] {
                precondition(spelling.utf8.count <= ShortKeyTable.maxCount, "a fast-path key of \(type.name) is too long")
                spellings.append((spelling, keys.count, rank))
            }
            keys.append(key)
        }
        precondition(keys.count == Key.allCases.count, "a fast-path key is not a field of \(type.name)")
        // Searched in the order `Key` declares its cases rather than the proto's: a decoder lists
        // the fields most bodies carry first, and a key is found after fewer comparisons.
        spellings.sort { ($0.rank, $0.position) < ($1.rank, $1.position) }
        self.table = ShortKeyTable(spellings.map { ($0.spelling, $0.position) })
        self.keys = keys
    }

    /// Reads a plain key with `reader` and gives the position in `keys` of the field it names, or
    /// nil for a key that is not plain or that the table does not hold.
    @inline(__always)
    func position(readingKeyWith reader: inout JSONReader) -> Int? {
        reader.readPlainKey(in: table)
    }
}
