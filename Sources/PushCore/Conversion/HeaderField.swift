import ByteCoding

/// One APNs request header, name in lowercase.
public struct HeaderField: Sendable, Equatable {
    /// The header name, lowercase (`apns-priority`).
    public var name: String
    /// The header value as sent.
    public var value: String

    /// Makes a header; the name is stored lowercase because HTTP header names are case-insensitive.
    public init(_ name: String, _ value: String) {
        self.name = Self.lowercased(name)
        self.value = value
    }

    /// Makes a header whose name is lowercase already, as the names the emulator writes itself
    /// are, and those of a request's headers (HTTP/2 allows no others; the HTTP/1.1 parser
    /// lowercases them).
    public init(lowercaseName name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `name` in lowercase; names are nearly always lowercase already, and checking costs less
    /// than lowercasing.
    static func lowercased(_ name: String) -> String {
        ASCIIScan.hasUppercase(name) ? name.lowercased() : name
    }
}

extension Array where Element == HeaderField {
    /// The value of the first header called `name` (any case), or nil.
    public func value(named name: String) -> String? {
        value(lowercaseName: HeaderField.lowercased(name))
    }

    /// The value of the first header called `name`, which is lowercase already: the emulator's
    /// own lookups need not check their fixed names for capitals on every call.
    func value(lowercaseName name: String) -> String? {
        // By position: `first(where:)` copies each field it tries, retaining both its strings.
        // Lengths first: Apple's header names all differ in length, and `==` on two strings that
        // differ went through the standard library's general comparison, about 100 instructions
        // (a push with five `apns-*` headers made ten such lookups). Names are ASCII tokens, so
        // names of different lengths are different names.
        for index in indices where self[index].name.utf8.count == name.utf8.count && self[index].name == name {
            return self[index].value
        }
        return nil
    }

    /// The headers as a JSON object, in order.
    public var json: JSONValue {
        .object(JSONObject(map { JSONObject.Member(key: $0.name, value: .string($0.value)) }))
    }
}
