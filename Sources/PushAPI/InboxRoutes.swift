import HTTPServer

/// The web inbox (docs/inbox.md): its pages, styles and modules at `/emulator/ui/`, compiled in
/// (`InboxFiles`, from inbox/ by scripts/embed-inbox.sh). The pages call the admin API and watch
/// `/emulator/v1/events`, like any other client: nothing here is only for them.
struct InboxRoutes {
    /// Where the inbox lives.
    static let path = "/emulator/ui/"

    /// What the pages may load: the emulator's own files and API, nothing else (no inline script
    /// or style, no other site, not even a notification's image: docs/inbox.md).
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    func register(in router: inout Router) {
        // Answers built once. One route for every file, not one each: the routes of three
        // segments are tried in turn for every APNs push (`/3/device/{token}`).
        var responses: [String: HTTPResponse] = [:]
        for (name, text) in InboxFiles.files {
            responses[name == "index.html" ? "" : name] = Self.response(
                Array(text.utf8), contentType: Self.contentType(of: name))
        }
        let notFound = router.notFound
        let index = responses[""]!
        router.add("GET", Self.path) { _ in index }
        router.add("GET", Self.path + "{file}") { [responses] request in
            responses[request.pathParameters["file"] ?? ""] ?? notFound(request)
        }
        router.add("GET", "/emulator/ui") { _ in Self.redirect }
    }

    /// `/` for a browser (a request that accepts HTML): the inbox. Anything else gets `nil`, and
    /// with it the 404 it got before the inbox existed, which API clients may rely on.
    static func rootRedirect(_ request: borrowing HTTPRequest) -> HTTPResponse? {
        guard request.path == "/", request.method == "GET" || request.method == "HEAD",
            let accept = request.headers["accept"], accept.contains("text/html")
        else { return nil }
        return redirect
    }

    private static let redirect = HTTPResponse(status: 302, headers: ["location": path])

    private static func response(_ body: [UInt8], contentType: String) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                "content-type": contentType,
                "content-security-policy": contentSecurityPolicy,
                "x-content-type-options": "nosniff",
                "referrer-policy": "no-referrer",
                // The files change with the binary only; a browser asks again on each load.
                "cache-control": "no-cache",
            ],
            body: .bytes(body))
    }

    private static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        return "application/octet-stream"
    }
}
