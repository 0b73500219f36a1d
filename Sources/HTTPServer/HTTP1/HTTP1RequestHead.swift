/// Version of an HTTP/1.x request.
enum HTTP1Version: Equatable, Sendable {
    case http10
    case http11
}

/// The request line and header fields of one HTTP/1.x request, with the connection semantics they imply.
struct HTTP1RequestHead: Sendable {
    /// The method as sent, e.g. "GET".
    var method: String
    /// The request-target in origin form, e.g. "/v1/x?y=1" (an absolute-form target's path and
    /// query).
    var target: String
    /// The protocol version of the request line.
    var version: HTTP1Version
    /// Header fields in the order received; names lower-cased, values without surrounding
    /// whitespace. Kept as the bytes `HTTPHeaders` stores, which the request takes as they are: a
    /// `String` of each name and value cost more than the rest of reading the head.
    var headers: HTTPHeaders
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
}
