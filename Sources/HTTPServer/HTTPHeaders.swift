/// Header fields in order. Names are stored lower-cased (HTTP/2 requires it; HTTP/1.1 does not care),
/// so lookups are case-insensitive.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields, in order, names lower-cased.
    public private(set) var fields: [(name: String, value: String)] = []

    /// Makes an empty header list.
    public init() {}

    /// Makes a header list from pairs in order.
    public init(_ pairs: [(String, String)]) {
        fields.reserveCapacity(pairs.count)
        for (name, value) in pairs { add(name, value) }
    }

    /// `["content-type": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        let key = Self.lowercased(name)
        // Lengths first: most names are ruled out without comparing text.
        let length = key.utf8.count
        return fields.first(where: { $0.name.utf8.count == length && $0.name == key })?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        let key = Self.lowercased(name)
        return fields.filter { $0.name == key }.map(\.value)
    }

    /// Appends a field (keeping any earlier one with the same name).
    public mutating func add(_ name: String, _ value: String) {
        fields.append((Self.lowercased(name), value))
    }

    /// Appends a field whose name is known to be lower-case already (HTTP/2 guarantees it).
    mutating func addLowercased(_ name: String, _ value: String) {
        // Requests carry a handful of fields: one allocation instead of growing 1, 2, 4, 8.
        if fields.capacity == 0 { fields.reserveCapacity(8) }
        fields.append((name, value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        let key = Self.lowercased(name)
        if fields.contains(where: { $0.name == key }) { fields.removeAll { $0.name == key } }
        fields.append((key, value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        let key = Self.lowercased(name)
        fields.removeAll { $0.name == key }
    }

    /// How many fields there are.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Lower-cases ASCII only (header names are ASCII tokens); fast path when already lower-case.
    static func lowercased(_ name: String) -> String {
        let utf8 = name.utf8
        let isUppercase = { (byte: UInt8) in byte >= 65 && byte <= 90 }
        let hasUppercase = utf8.withContiguousStorageIfAvailable { $0.contains(where: isUppercase) }
        guard hasUppercase ?? utf8.contains(where: isUppercase) else { return name }
        return String(decoding: utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
