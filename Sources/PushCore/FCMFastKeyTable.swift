/// The fields of one proto message that `FCMSendRequestFastDecoder` handles, found by a key's
/// raw bytes in either spelling (snake_case or lowerCamelCase).
///
/// Built from `FCMSchema`, so the two paths cannot disagree on a field's names; the decoder's
/// `Key` enums name fields by their proto name.
struct FCMFastKeyTable<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    /// Every spelling's bytes, one after another: one buffer to look through instead of one per name.
    private let names: [UInt8]
    /// Where each spelling is in `names`, and the position in `keys` of its field.
    private let spellings: [(start: Int, count: Int, position: Int)]
    let keys: [Key]

    init(_ type: FCMProtoMessage) {
        var names: [UInt8] = [], spellings: [(start: Int, count: Int, position: Int)] = [], keys: [Key] = []
        for field in type.fields {
            guard let key = Key(rawValue: field.name) else { continue }
            for spelling in Set([field.name, field.jsonName]) {
                spellings.append((names.count, spelling.utf8.count, keys.count))
                names.append(contentsOf: spelling.utf8)
            }
            keys.append(key)
        }
        precondition(keys.count == Key.allCases.count, "a fast-path key is not a field of \(type.name)")
        self.names = names
        self.spellings = spellings
        self.keys = keys
    }

    /// The position in `keys` of the field `bytes` names, or nil for a key the table does not hold.
    func position(of bytes: UnsafeRawBufferPointer) -> Int? {
        names.withUnsafeBufferPointer { names in
            search: for spelling in spellings where spelling.count == bytes.count {
                for offset in 0..<spelling.count where names[spelling.start + offset] != bytes[offset] {
                    continue search
                }
                return spelling.position
            }
            return nil
        }
    }
}
