/// Version of an HTTP/1.x request.
enum HTTP1Version: Equatable, Sendable {
    case http10
    case http11
}

/// The request line and header fields of one HTTP/1.x request, with the connection semantics they imply.
struct HTTP1RequestHead: Sendable {
    /// The method as sent, e.g. "GET".
    var method: String
    /// The request-target as sent, e.g. "/v1/x?y=1".
    var target: String
    /// The protocol version of the request line.
    var version: HTTP1Version
    /// Header fields in the order received; names as sent, values without surrounding whitespace.
    var headers: [(name: String, value: String)]
    /// Whether the connection stays open after this request: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    var keepAlive: Bool
    /// Whether an HTTP/1.1 client waits for `100 Continue` before sending the body (an HTTP/1.0
    /// request's expectation is ignored, as RFC 9110 §10.1.1 requires).
    var expectsContinue: Bool
    /// Whether an HTTP/1.1 client asks to switch to cleartext HTTP/2: `Upgrade` lists `h2c`,
    /// `Connection` lists `upgrade`, and exactly one `HTTP2-Settings` field is present.
    var upgradeToH2C: Bool
    /// The `HTTP2-Settings` field value (base64url SETTINGS payload), if present.
    var http2Settings: String?

    /// The first value of the header named `name`, compared without regard to ASCII case.
    func header(_ name: String) -> String? {
        headers.first { HTTP1Parser.ASCII.equalsIgnoringCase($0.name.utf8, name.utf8) }?.value
    }
}
