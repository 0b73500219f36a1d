import ByteCoding

/// Reads one JSON object of a state snapshot, naming the path of whatever is missing or of the
/// wrong type in the error it throws.
struct SnapshotReader {
    /// The object's path in the snapshot (`projects[0].devices[2]`).
    let path: String
    private let object: JSONObject

    /// Reads `value`, which must be an object whose keys are all among `keys`.
    init(_ value: JSONValue, path: String, keys: Set<String>) throws(SnapshotError) {
        guard case .object(let object) = value else {
            throw SnapshotError(path: path, "expected an object, got \(Self.kind(of: value))")
        }
        self.path = path
        self.object = object
        if let unknown = object.keys.first(where: { !keys.contains($0) }) {
            throw SnapshotError(path: self.path(unknown), "unknown field (a snapshot of version 1 has \(keys.sorted().joined(separator: ", ")))")
        }
    }

    /// The path of a member.
    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member `key`, which must be present.
    func value(_ key: String) throws(SnapshotError) -> JSONValue {
        guard let value = object[key] else { throw SnapshotError(path: path(key), "missing") }
        return value
    }

    /// The member `key` unless it is absent or null.
    func optionalValue(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(SnapshotError) -> String {
        try Self.string(try value(key), path: path(key))
    }

    func optionalString(_ key: String) throws(SnapshotError) -> String? {
        guard let value = optionalValue(key) else { return nil }
        return try Self.string(value, path: path(key))
    }

    func int(_ key: String, atLeast minimum: Int = 0) throws(SnapshotError) -> Int {
        try Self.int(try value(key), path: path(key), atLeast: minimum)
    }

    func optionalInt(_ key: String, atLeast minimum: Int = 0) throws(SnapshotError) -> Int? {
        guard let value = optionalValue(key) else { return nil }
        return try Self.int(value, path: path(key), atLeast: minimum)
    }

    func bool(_ key: String) throws(SnapshotError) -> Bool {
        guard case .bool(let flag) = try value(key) else {
            throw SnapshotError(path: path(key), "expected true or false, got \(Self.kind(of: try value(key)))")
        }
        return flag
    }

    func optionalBool(_ key: String) throws(SnapshotError) -> Bool? {
        guard optionalValue(key) != nil else { return nil }
        return try bool(key)
    }

    func timestamp(_ key: String) throws(SnapshotError) -> Timestamp {
        try Self.timestamp(try value(key), path: path(key))
    }

    func optionalTimestamp(_ key: String) throws(SnapshotError) -> Timestamp? {
        guard let value = optionalValue(key) else { return nil }
        return try Self.timestamp(value, path: path(key))
    }

    /// A member that holds one of the cases of `Value`, by raw value.
    func named<Value: RawRepresentable & CaseIterable>(_ key: String, _: Value.Type) throws(SnapshotError) -> Value
    where Value.RawValue == String {
        let text = try string(key)
        guard let value = Value(rawValue: text) else {
            let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw SnapshotError(path: path(key), "must be one of \(names); got \"\(text)\"")
        }
        return value
    }

    func array(_ key: String) throws(SnapshotError) -> [JSONValue] {
        guard case .array(let elements) = try value(key) else {
            throw SnapshotError(path: path(key), "expected an array, got \(Self.kind(of: try value(key)))")
        }
        return elements
    }

    /// An array of objects, each read with `keys`.
    func objects(_ key: String, keys: Set<String>) throws(SnapshotError) -> [SnapshotReader] {
        var readers = [SnapshotReader]()
        for (index, element) in try array(key).enumerated() {
            readers.append(try SnapshotReader(element, path: "\(path(key))[\(index)]", keys: keys))
        }
        return readers
    }

    /// An array of integers in increasing order.
    func increasingInts(_ key: String) throws(SnapshotError) -> [Int] {
        var numbers = [Int]()
        for (index, element) in try array(key).enumerated() {
            let number = try Self.int(element, path: "\(path(key))[\(index)]", atLeast: 1)
            if let last = numbers.last, number <= last {
                throw SnapshotError(path: "\(path(key))[\(index)]", "must be above the number before it (\(last))")
            }
            numbers.append(number)
        }
        return numbers
    }

    /// An array of objects, each read with `keys` by `read`, listed in increasing `position`
    /// (a delivery's number, a log entry's sequence, a fault's id), whose field is `positionKey`.
    func increasing<Item>(
        _ key: String, keys: Set<String>, by position: (Item) -> Int, positionKey: String,
        _ read: (SnapshotReader) throws(SnapshotError) -> Item
    ) throws(SnapshotError) -> [Item] {
        var items = [Item]()
        for entry in try objects(key, keys: keys) {
            let item = try read(entry)
            if let last = items.last, position(item) <= position(last) {
                throw entry.error(positionKey, "listed in increasing \(positionKey); \(position(item)) follows \(position(last))")
            }
            items.append(item)
        }
        return items
    }

    /// A counter (a member of `next`): the number the next one gets, above `highest`, the
    /// highest of the `what` numbered so far.
    func counter(_ key: String, above highest: Int?, of what: String) throws(SnapshotError) -> Int {
        let value = try int(key, atLeast: 1)
        if let highest, highest >= value { throw error(key, "must be above every \(what) (\(highest))") }
        return value
    }

    func object(_ key: String, keys: Set<String>) throws(SnapshotError) -> SnapshotReader {
        try SnapshotReader(try value(key), path: path(key), keys: keys)
    }

    func optionalObject(_ key: String, keys: Set<String>) throws(SnapshotError) -> SnapshotReader? {
        guard let value = optionalValue(key) else { return nil }
        return try SnapshotReader(value, path: path(key), keys: keys)
    }

    /// An error at a member of this object.
    func error(_ key: String, _ problem: String) -> SnapshotError {
        SnapshotError(path: path(key), problem)
    }

    static func string(_ value: JSONValue, path: String) throws(SnapshotError) -> String {
        guard case .string(let text) = value else { throw SnapshotError(path: path, "expected a string, got \(kind(of: value))") }
        return text
    }

    /// The largest whole number a snapshot holds (2⁵³, what a JavaScript number holds exactly):
    /// far above any count a run reaches, and low enough that counting on from it cannot overflow.
    static let largestInt = 1 << 53

    static func int(_ value: JSONValue, path: String, atLeast minimum: Int) throws(SnapshotError) -> Int {
        guard case .number(let text) = value, let number = Int(text) else {
            throw SnapshotError(path: path, "expected a whole number, got \(kind(of: value))")
        }
        guard number >= minimum else { throw SnapshotError(path: path, "must be at least \(minimum); got \(number)") }
        guard number <= largestInt else { throw SnapshotError(path: path, "must be at most \(largestInt); got \(number)") }
        return number
    }

    static func timestamp(_ value: JSONValue, path: String) throws(SnapshotError) -> Timestamp {
        let text = try string(value, path: path)
        guard let timestamp = Timestamp(rfc3339: text) else {
            throw SnapshotError(path: path, "expected an RFC 3339 time in UTC such as 2026-11-22T10:00:00Z; got \"\(text)\"")
        }
        return timestamp
    }

    /// How an error names what it found instead.
    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
