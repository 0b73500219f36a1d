import ByteCoding

/// One entry of a `map<string, string>` (`data`, `apns.headers`, ...), kept in the order sent:
/// Google's errors name entries by position (`message.data[0].value`).
public struct FCMStringPair: Sendable, Equatable {
    /// The entry's key.
    public var key: String
    /// The entry's value.
    public var value: String

    /// Makes an entry.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }

    /// The entries of a canonical JSON object whose values are all strings.
    static func pairs(of value: JSONValue?) -> [FCMStringPair] {
        guard let object = value?.objectValue else { return [] }
        return object.members.compactMap { member in
            member.value.stringValue.map { FCMStringPair(member.key, $0) }
        }
    }
}

extension Array where Element == FCMStringPair {
    /// The value of the first entry with `key`, or nil.
    public subscript(key: String) -> String? {
        first { $0.key == key }?.value
    }
}
