/// The fields of one proto message that `FCMSendRequestFastDecoder` handles, found by a key's
/// raw bytes in either spelling (snake_case or lowerCamelCase).
///
/// Built from `FCMSchema`, so the two paths cannot disagree on a field's names; the decoder's
/// `Key` enums name fields by their proto name.
struct FCMFastKeyTable<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    private let protoNames: [[UInt8]]
    private let jsonNames: [[UInt8]]
    let keys: [Key]

    init(_ type: FCMProtoMessage) {
        var protoNames: [[UInt8]] = [], jsonNames: [[UInt8]] = [], keys: [Key] = []
        for field in type.fields {
            guard let key = Key(rawValue: field.name) else { continue }
            protoNames.append(Array(field.name.utf8))
            jsonNames.append(Array(field.jsonName.utf8))
            keys.append(key)
        }
        precondition(keys.count == Key.allCases.count, "a fast-path key is not a field of \(type.name)")
        self.protoNames = protoNames
        self.jsonNames = jsonNames
        self.keys = keys
    }

    /// The position in `keys` of the field `bytes` names, or nil for a key the table does not hold.
    func position(of bytes: UnsafeRawBufferPointer) -> Int? {
        for position in keys.indices {
            if Self.matches(protoNames[position], bytes) || Self.matches(jsonNames[position], bytes) {
                return position
            }
        }
        return nil
    }

    private static func matches(_ name: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard name.count == bytes.count else { return false }
        for index in name.indices where name[index] != bytes[index] { return false }
        return true
    }
}
