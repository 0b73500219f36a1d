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
        guard isOwn(host: RequestHostNames.host(ofAuthority: authority)) else {
            return Self.refuse(
                "Host \(authority) is not one of the emulator's names (localhost, an IP address, a name of one label, "
                    + "or a --tls-hostname): a page under another name may not call the emulator's API.")
        }
        let fetchSite = request.headers["sec-fetch-site"]
        let crossSite = fetchSite == "cross-site" || fetchSite == "same-site"
        let foreignOrigin = request.headers["origin"].map { origin in
            RequestHostNames.authority(ofOrigin: origin).map(RequestHostNames.withoutDefaultPort)
                != RequestHostNames.withoutDefaultPort(authority)
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

    /// Whether `host` names this emulator (an absent `Host`, which no browser sends, does).
    func isOwn(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty || !host.contains(".") || host.hasSuffix(".localhost") || RequestHostNames.isIPAddress(host)
            || hostNames.contains(host)
    }
}
