import Glibc

/// A complete request, whatever protocol it arrived over.
public struct HTTPRequest: Sendable {
    /// The method, e.g. `POST`.
    public var method: String
    /// The path without the query, still percent-encoded, e.g. `/v1/projects/demo/messages:send`.
    public var path: String
    /// The raw query string after `?`, or empty.
    public var query: String
    /// The request headers (for HTTP/2, without pseudo-headers).
    public var headers: HTTPHeaders
    /// The whole request body.
    public var body: [UInt8]
    /// The protocol the request arrived over.
    public var version: HTTPVersion
    /// True when the connection is TLS.
    public var isSecure: Bool
    /// `Host` or `:authority`.
    public var authority: String?
    /// The client's address, e.g. `127.0.0.1:50412`.
    public var remoteAddress: String
    /// Parameters the router matched in the path template (percent-decoded).
    public var pathParameters = PathParameters()
    /// The connection the request arrived on (nil for a request made by hand, as in tests).
    public var connection: ConnectionSession? = nil

    /// The query's parameters in order, percent-decoded (`+` as space).
    public var queryItems: [(name: String, value: String)] {
        Self.formItems(query)
    }

    /// The body's parameters in order, read as `application/x-www-form-urlencoded` (the query's
    /// syntax), percent-decoded (`+` as space).
    public var formItems: [(name: String, value: String)] {
        Self.formItems(String(decoding: body, as: UTF8.self))
    }

    /// `name=value&...` pairs, percent-decoded (`+` as space); a malformed escape is kept as written.
    static func formItems(_ text: String) -> [(name: String, value: String)] {
        guard !text.isEmpty else { return [] }
        return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(parts[0], plusAsSpace: true) ?? String(parts[0])
            let value = parts.count > 1 ? (PercentDecoding.decode(parts[1], plusAsSpace: true) ?? String(parts[1])) : ""
            return (name, value)
        }
    }

    /// The first query parameter named `name`.
    public func queryItem(_ name: String) -> String? {
        queryItems.first(where: { $0.name == name })?.value
    }
}

// In an extension so that the struct keeps its memberwise initializer, which `HTTP2Handler` uses:
// a hand-written one (this one, inlined) built the value in a temporary and then copied it.
extension HTTPRequest {
    /// Makes a request; `target` is split into path and query.
    public init(
        method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        version: HTTPVersion = .http1_1, isSecure: Bool = false, authority: String? = nil,
        remoteAddress: String = "-"
    ) {
        var target = target
        let (path, query) = target.withUTF8(Self.split(target:))
        self.init(
            method: method, path: path, query: query, headers: headers, body: body, version: version,
            isSecure: isSecure, authority: authority, remoteAddress: remoteAddress
        )
    }
}

extension HTTPRequest {
    /// A request target's path and query, split at its first `?`. Searched in the bytes with
    /// `memchr`: every request does this, and a byte-by-byte walk cost ~5 instructions a byte.
    static func split(target bytes: UnsafeBufferPointer<UInt8>) -> (path: String, query: String) {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(UInt8(ascii: "?")), bytes.count) else {
            return (String(decoding: bytes, as: UTF8.self), "")
        }
        let mark = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        return (
            String(decoding: UnsafeBufferPointer(rebasing: bytes[..<mark]), as: UTF8.self),
            String(decoding: UnsafeBufferPointer(rebasing: bytes[(mark + 1)...]), as: UTF8.self)
        )
    }
}

/// Percent-decoding of URL components.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` when asked); nil when an escape is malformed.
    static func decode(_ text: Substring, plusAsSpace: Bool = false) -> String? {
        decode(text.utf8, plusAsSpace: plusAsSpace)
    }

    /// Decodes `%XX` escapes (and `+` when asked) in UTF-8 bytes; nil when an escape is malformed.
    static func decode<Bytes: Collection<UInt8>>(_ utf8: Bytes, plusAsSpace: Bool = false) -> String? {
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            // Written in place rather than through `String(decoding:as:)`: a short ASCII string
            // (a path parameter on every routed request) is then taken as it is, without the
            // generic UTF-8 check. Invalid UTF-8 is still repaired.
            return String(unsafeUninitializedCapacity: utf8.count) { $0.initialize(fromContentsOf: utf8) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
