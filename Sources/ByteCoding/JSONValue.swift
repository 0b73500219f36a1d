/// A JSON value that keeps object members in the order they were written.
///
/// Order matters to the emulator: Google's error messages name a `data` entry by its
/// position (`message.data[0].value`), and payloads are echoed back the way they were sent.
/// Numbers keep their source text so that an error can quote a value verbatim.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as written in the source text (for example `12`, `-0.5`, `1e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object: members in source order. Keys are unique once parsed.
public struct JSONObject: Sendable, Equatable {
    /// One `"key": value` pair.
    public struct Member: Sendable, Equatable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: JSONValue
        /// Makes a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in order.
    public var members: [Member]

    /// Makes an object from members in order.
    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// The value of `key`, or nil.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// True when the object has no members.
    public var isEmpty: Bool { members.isEmpty }
}
