/// Header fields in order. Names are stored lower-cased (HTTP/2 requires it; HTTP/1.1 does not care),
/// so lookups are case-insensitive.
///
/// The fields live as bytes in one buffer, each as its name's and value's lengths (four bytes each)
/// followed by the name and the value: a request's fields arrive as bytes and most are never read,
/// so making a `String` of each (validation, often an allocation) would be wasted; a `String` is
/// made only for what is looked up.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields' lengths and bytes, back to back.
    private var storage: [UInt8] = []
    /// How many fields there are.
    public private(set) var count = 0

    /// Makes an empty header list.
    public init() {}

    /// Makes a header list from pairs in order.
    public init(_ pairs: [(String, String)]) {
        for (name, value) in pairs { add(name, value) }
    }

    /// `["content-type": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The fields, in order, names lower-cased.
    public var fields: [(name: String, value: String)] { Array(self) }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        var name = name
        return name.withUTF8 { key in
            withFieldBytes { fields in
                fields.first { Self.nameMatches($0.name, key) }.map { String(decoding: $0.value, as: UTF8.self) }
            }
        }
    }

    /// Whether the first value of `name` (lowercase) satisfies `predicate`, or nil when there is
    /// none: for fields read on every request, which need no `String` of the value. Not generic,
    /// so that a caller in another module does not go through an unspecialized call.
    public func firstValue(
        named name: StaticString, satisfies predicate: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool? {
        // Stored names are lower-case, and so is `name`: compared as they are, not byte by byte
        // lower-casing.
        withFieldBytes { fields -> Bool? in
            for field in fields where field.name.equals(name) { return predicate(field.value) }
            return nil
        }
    }

    /// Calls `body` with the name and value bytes of each field whose (lower-case) name bytes
    /// `include` accepts, in order: a caller makes what it needs of them (a literal for a name it
    /// knows, a string it made of the same bytes before) straight into its own values.
    public func forEachField(
        where include: (UnsafeBufferPointer<UInt8>) -> Bool,
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void
    ) {
        withFieldBytes { fields in
            for field in fields where include(field.name) { body(field.name, field.value) }
        }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        var name = name
        return name.withUTF8 { key in
            withFieldBytes { fields in
                fields.filter { Self.nameMatches($0.name, key) }.map { String(decoding: $0.value, as: UTF8.self) }
            }
        }
    }

    /// Appends a field (keeping any earlier one with the same name).
    public mutating func add(_ name: String, _ value: String) {
        var name = name
        var value = value
        name.withUTF8 { name in
            value.withUTF8 { value in append(name, value, lowercasing: true) }
        }
    }

    /// Appends a field whose name is a lower-case literal and whose `valueByteCount` value bytes
    /// `writeValue` writes in place (all of them): for a value made as bytes (a generated id), of
    /// which a `String` would be made only to be copied here.
    public mutating func add(
        lowercaseName name: StaticString, valueByteCount: Int, writingValue writeValue: (UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        let name = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        // HTTP/2 answers hand names to nghttp2 as they are stored (`HTTP2ResponseHead`): a capital
        // would go out as a malformed response. Checked in debug builds, which the sanitizer runs
        // of the end-to-end tests use; a check in release builds cost 150 instructions a push.
        assert(!name.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }, "a lower-case name")
        append(name, valueByteCount: valueByteCount, lowercasing: false, writeValue: writeValue)
    }

    /// Appends `count` fields laid out as `HTTPHeaderFieldBytes` describes, names lower-case.
    mutating func appendFields(_ fields: UnsafeRawBufferPointer, count: Int) {
        // A request's fields come in one block: an exact allocation, no growth.
        if storage.isEmpty {
            storage = Array(fields.bindMemory(to: UInt8.self))
        } else {
            storage.append(contentsOf: fields)
        }
        self.count += count
    }

    /// Replaces every field named `name` with one field, at the end.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        var name = name
        let kept: HTTPHeaders? = name.withUTF8 { key in
            withFieldBytes { fields in
                guard fields.contains(where: { Self.nameMatches($0.name, key) }) else { return nil }
                var kept = HTTPHeaders()
                for field in fields where !Self.nameMatches(field.name, key) {
                    kept.append(field.name, field.value, lowercasing: false)
                }
                return kept
            }
        }
        if let kept { self = kept }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> Iterator {
        Iterator(storage: storage)
    }

    /// Calls `body` with the fields as bytes, valid only during the call.
    func withFieldBytes<Result>(_ body: (HTTPHeaderFieldBytes) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { try body(HTTPHeaderFieldBytes(storage: $0)) }
    }

    /// Appends a field from its bytes: the HTTP/1 parser's way in, straight from the request's
    /// bytes, with `lowercasing` for the name as sent.
    mutating func append(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, lowercasing: Bool) {
        append(name, valueByteCount: value.count, lowercasing: lowercasing) {
            if let source = value.baseAddress { $0.baseAddress!.initialize(from: source, count: value.count) }
        }
    }

    /// Appends a field named `name` whose `valueByteCount` value bytes `writeValue` writes.
    private mutating func append(
        _ name: UnsafeBufferPointer<UInt8>, valueByteCount: Int, lowercasing: Bool,
        writeValue: (UnsafeMutableBufferPointer<UInt8>) -> Void
    ) {
        let needed = HTTPHeaderFieldBytes.lengthsSize + name.count + valueByteCount
        if storage.capacity - storage.count < needed {
            // A request carries a handful of fields: one allocation rather than growing 1, 2, 4, 8.
            storage.reserveCapacity(Swift.max(storage.count + needed, storage.capacity * 2, 256))
        }
        // Laid out on the stack and appended at once: each `append` costs a uniqueness and capacity check.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: needed) { field in
            let lengths = (UInt32(name.count).littleEndian, UInt32(valueByteCount).littleEndian)
            withUnsafeBytes(of: lengths) { UnsafeMutableRawBufferPointer(field).copyMemory(from: $0) }
            let nameStart = field.baseAddress! + HTTPHeaderFieldBytes.lengthsSize
            if let source = name.baseAddress { nameStart.initialize(from: source, count: name.count) }
            writeValue(UnsafeMutableBufferPointer(start: nameStart + name.count, count: valueByteCount))
            if lowercasing {
                for index in 0..<name.count { nameStart[index] = HTTP1Parser.ASCII.lowercased(nameStart[index]) }
            }
            storage.append(contentsOf: field)
        }
        count += 1
    }

    /// Compares a stored (lower-case) name with a key in any case.
    private static func nameMatches(_ stored: UnsafeBufferPointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == key.count else { return false }
        for index in 0..<key.count where HTTP1Parser.ASCII.lowercased(key[index]) != stored[index] {
            return false
        }
        return true
    }
}
