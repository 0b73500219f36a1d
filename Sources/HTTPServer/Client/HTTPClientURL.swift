/// An `http://` or `https://` URL as `HTTPClient` uses it: scheme, host, port and the request
/// target. No user info, no fragment.
public struct HTTPClientURL: Sendable, Equatable, CustomStringConvertible {
    /// Whether it is `https://`.
    public let usesTLS: Bool
    /// The host: a name, an IPv4 address, or an IPv6 address without its brackets.
    public let host: String
    /// The port (80 or 443 when the URL names none).
    public let port: UInt16
    /// The path and query, at least `/`.
    public let target: String
    /// The URL as given.
    public let description: String

    /// Parses `text`; throws with the reason when it is not an absolute http or https URL.
    public init(_ text: String) throws(HTTPClientError) {
        description = text
        // Only what may stand in a request line: no spaces, controls or bytes beyond ASCII.
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPClientError("\(text): a URL has no spaces, control characters or non-ASCII bytes (percent-encode them)")
        }
        let rest: Substring
        if text.lowercased().hasPrefix("http://") {
            usesTLS = false
            rest = text.dropFirst(7)
        } else if text.lowercased().hasPrefix("https://") {
            usesTLS = true
            rest = text.dropFirst(8)
        } else {
            throw HTTPClientError("\(text) is not an http:// or https:// URL")
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = rest[authorityEnd...]
        if let fragment = path.firstIndex(of: "#") { path = path[..<fragment] }
        target = path.isEmpty ? "/" : path.hasPrefix("?") ? "/" + path : String(path)
        guard !authority.contains("@") else { throw HTTPClientError("\(text): user info in a URL is not supported") }
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw HTTPClientError("\(text): an IPv6 address without its ]") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw HTTPClientError("\(text): text after the IPv6 address") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == " " || $0 == "\t" }) else {
            throw HTTPClientError("\(text): no host")
        }
        host = String(hostPart)
        if let portPart {
            guard let port = UInt16(portPart), port > 0 else { throw HTTPClientError("\(text): the port is not 1-65535") }
            self.port = port
        } else {
            port = usesTLS ? 443 : 80
        }
    }

    /// The `Host` header's value: the host (bracketed when IPv6), with the port when it is not the scheme's.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (usesTLS ? 443 : 80) ? name : "\(name):\(port)"
    }
}
