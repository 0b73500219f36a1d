/// One APNs request header, name in lowercase.
public struct HeaderField: Sendable, Equatable {
    /// The header name, lowercase (`apns-priority`).
    public var name: String
    /// The header value as sent.
    public var value: String

    /// Makes a header; the name is stored lowercase because HTTP header names are case-insensitive.
    public init(_ name: String, _ value: String) {
        self.name = name.lowercased()
        self.value = value
    }
}

extension Array where Element == HeaderField {
    /// The value of the first header called `name` (any case), or nil.
    public func value(named name: String) -> String? {
        let lowercased = name.lowercased()
        return first(where: { $0.name == lowercased })?.value
    }

    /// The headers as a JSON object, in order.
    public var json: JSONValue {
        .object(JSONObject(map { JSONObject.Member(key: $0.name, value: .string($0.value)) }))
    }
}
