import HTTPServer
import PushCore

/// Keeps other web sites out of the emulator's own API (`/emulator/...`): the inbox gives a web
/// page a way in, and so would any page the developer opens while the emulator runs
/// (docs/server.md, "Browsers and the admin API").
///
/// - Every request must name the emulator in `Host` by a name no public DNS can point at it:
///   `localhost` (and `*.localhost`), an IP address, a name of one label (a compose service, a
///   host in `/etc/hosts`), or a `--tls-hostname`. A page that rebinds its own domain to
///   127.0.0.1 sends that domain, and its same-origin reads carry no other sign of a browser.
/// - A browser's request from another site is refused whatever its method: its `Origin` is not
///   the same host and port as `Host`, or its `Sec-Fetch-Site` says `cross-site` or `same-site`.
///   Reads change state too (`:stream` delivers, and it and `/events` take places of a bounded
///   number), and the emulator sends no CORS headers, so no other site needs them.
///
/// Clients that are not browsers (curl, the SDKs, a backend in a container) send neither header.
struct BrowserRequestGuard: Sendable {
    /// The extra names the emulator answers to (`--tls-hostname`), lowercased.
    let hostNames: Set<String>

    init(hostNames: [String]) {
        self.hostNames = Set(hostNames.map { $0.lowercased() })
    }

    /// The answer that refuses `request`, or nil when it may go on.
    func refusal(_ request: borrowing HTTPRequest) -> HTTPResponse? {
        // Only the emulator's own API: FCM's and Apple's routes answer whatever their clients send.
        // (The router calls this for the routes under /emulator/ only: `Router.routeGuard`.)
        guard request.path.utf8.starts(with: "/emulator/".utf8) else { return nil }
        let authority = request.authority ?? ""
        guard isOwn(host: Self.host(ofAuthority: authority)) else {
            return Self.refuse(
                "Host \(authority) is not one of the emulator's names (localhost, an IP address, a name of one label, "
                    + "or a --tls-hostname): a page under another name may not call the emulator's API.")
        }
        let fetchSite = request.headers["sec-fetch-site"]
        let crossSite = fetchSite == "cross-site" || fetchSite == "same-site"
        let foreignOrigin = request.headers["origin"].map { origin in
            Self.authority(ofOrigin: origin).map(Self.withoutDefaultPort) != Self.withoutDefaultPort(authority)
        } ?? false
        guard !crossSite, !foreignOrigin else {
            return Self.refuse(
                "A request from \(request.headers["origin"] ?? "another site") may not call the emulator's API: "
                    + "only the emulator's own pages (or a client that is not a browser) may.")
        }
        return nil
    }

    private static func refuse(_ message: String) -> HTTPResponse {
        GoogleErrorResponse.make(.permissionDenied(message))
    }

    /// `authority` lowercased, without a port of 80 or 443 (which `Origin` leaves out).
    private static func withoutDefaultPort(_ authority: String) -> String {
        let lowercased = authority.lowercased()
        for port in [":80", ":443"] where lowercased.hasSuffix(port) { return String(lowercased.dropLast(port.count)) }
        return lowercased
    }

    /// Whether `host` names this emulator (an absent `Host`, which no browser sends, does).
    func isOwn(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty || !host.contains(".") || host.hasSuffix(".localhost") || Self.isIPAddress(host)
            || hostNames.contains(host)
    }

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

    /// Whether `host` is an IPv4 address in dotted decimal or an IPv6 address (a DNS name can
    /// be rebound to 127.0.0.1; an address cannot be another site's).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") {
            return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part)! <= 255
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
