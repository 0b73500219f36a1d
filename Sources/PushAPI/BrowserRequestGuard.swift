import HTTPServer
import PushCore

/// Keeps other web sites out of the emulator's own API (`/emulator/...`): the inbox gives a web
/// page a way in, and so would any page the developer opens while the emulator runs
/// (docs/server.md, "Browsers and the admin API").
///
/// - A browser's request (it carries `Origin` or `Sec-Fetch-Site`) must name the emulator by one
///   of its own names in `Host`: `localhost` (and `*.localhost`), an IP address, or a
///   `--tls-hostname`. A page that rebinds its own domain to 127.0.0.1 sends that domain: refused.
/// - A request that changes something (not GET, HEAD or OPTIONS) from a browser must come from the
///   emulator's own pages: its `Origin` is the same host and port as `Host`, and
///   `Sec-Fetch-Site`, when sent, is `same-origin` or `none`. A form or script on another site is
///   refused.
///
/// Requests without those headers (curl, the SDKs, a backend in a container) are not browsers'
/// and pass, whatever name they use.
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
        let origin = request.headers["origin"]
        let fetchSite = request.headers["sec-fetch-site"]
        guard origin != nil || fetchSite != nil else { return nil }
        let authority = request.authority ?? ""
        guard isOwn(host: Self.host(ofAuthority: authority)) else {
            return Self.refuse(
                "Host \(authority) is not one of the emulator's names (localhost, an IP address, or a --tls-hostname): "
                    + "a page under another name may not call the emulator's API.")
        }
        switch request.method {
        case "GET", "HEAD", "OPTIONS":
            return nil
        default:
            let sameSite = fetchSite == nil || fetchSite == "same-origin" || fetchSite == "none"
            let sameOrigin = origin.map { origin in
                Self.authority(ofOrigin: origin).map(Self.withoutDefaultPort) == Self.withoutDefaultPort(authority)
            } ?? true
            guard sameSite, sameOrigin else {
                return Self.refuse(
                    "A \(request.method) from \(origin ?? "another site") may not change the emulator's state: "
                        + "only the emulator's own pages (or a client that is not a browser) may.")
            }
            return nil
        }
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

    /// Whether `host` names this emulator.
    func isOwn(host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host.hasSuffix(".localhost") || Self.isIPAddress(host) || hostNames.contains(host)
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
