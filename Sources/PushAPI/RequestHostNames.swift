/// The host names in a request's `Host` and `Origin`, as the browser guard compares them
/// (`BrowserRequestGuard`, docs/server.md "Browsers and the admin API"). Plain Swift on strings,
/// fuzzed by `scripts/fuzz.sh request-headers`.
enum RequestHostNames {
    /// The host of a `Host` value: without its port, an IPv6 address without its brackets.
    static func host(ofAuthority authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        if let colon = authority.lastIndex(of: ":") { return String(authority[..<colon]) }
        return authority
    }

    /// The `host[:port]` of an `Origin` value (`scheme://host[:port]`); nil for `null` or another shape.
    static func authority(ofOrigin origin: String) -> String? {
        guard let separator = origin.firstRange(of: "://") else { return nil }
        let rest = origin[separator.upperBound...]
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        return String(rest)
    }

    /// `authority` lowercased, without a port of 80 or 443 (which `Origin` leaves out).
    static func withoutDefaultPort(_ authority: String) -> String {
        let lowercased = authority.lowercased()
        for port in [":80", ":443"] where lowercased.hasSuffix(port) { return String(lowercased.dropLast(port.count)) }
        return lowercased
    }

    /// Whether `host` is an IPv4 address in dotted decimal or an IPv6 address (a DNS name can
    /// be rebound to 127.0.0.1; an address cannot be another site's).
    ///
    /// Read as bytes, not characters: a digit followed by a combining mark is one `Character`
    /// that sorts between "0" and "9" but is no number (`Host: 1.0.0.3\u{7FD}` once trapped here).
    static func isIPAddress(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        if bytes.contains(UInt8(ascii: ":")) {
            return bytes.allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy(isDigit)
                && part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}
