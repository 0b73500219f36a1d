/// An answer that `HTTPClient` read: its status, header fields and whole body.
public struct HTTPClientResponse: Sendable, Equatable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The header fields in the order received, names in lowercase.
    public var headers: [HTTPClientHeader]
    /// The body, its chunked framing removed.
    public var body: [UInt8]

    /// Makes a response.
    public init(status: Int, headers: [HTTPClientHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (any case), if any.
    public func header(_ name: String) -> String? {
        let lowercased = name.lowercased()
        return headers.first { $0.name == lowercased }?.value
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// One header field of a response.
public struct HTTPClientHeader: Sendable, Equatable {
    /// The name, in lowercase.
    public var name: String
    /// The value, without surrounding spaces.
    public var value: String

    /// Makes a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
