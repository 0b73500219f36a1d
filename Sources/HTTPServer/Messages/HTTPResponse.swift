/// A response: status, headers and a body that is either complete or written over time.
public struct HTTPResponse: Sendable {
    /// How the body is produced.
    public enum Body: Sendable {
        /// The whole body, now.
        case bytes([UInt8])
        /// A body written over time (e.g. Server-Sent Events). The closure runs once the status and
        /// headers have been sent, on the connection's loop; it may keep the stream and write to it
        /// from any thread until it calls `finish()` or the client leaves.
        case stream(@Sendable (ResponseStream) -> Void)
        /// No answer yet: the whole response (status, headers, body) comes later through
        /// `DeferredResponse.respond`. The closure runs on the connection's loop once the
        /// handler has returned. Made with `HTTPResponse.deferred`.
        case deferred(@Sendable (DeferredResponse) -> Void)
    }

    /// The status code.
    public var status: Int
    /// The response headers (`content-length` is added by the server).
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// What the connection does besides (or instead of) sending this response; nil: nothing.
    public var connectionAction: ConnectionAction?

    /// The length of a whole body (`.bytes`); 0 for the others.
    var wholeBodyCount: Int {
        if case .bytes(let bytes) = body { return bytes.count }
        return 0
    }

    /// Makes a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response given later, without holding the loop: `start` gets the `DeferredResponse`
    /// to answer through (e.g. from a task scheduled on its loop). HTTP/1.1 answers pipelined
    /// requests in order, so later requests on the same connection wait for it; other HTTP/2
    /// streams and other connections do not.
    public static func deferred(_ start: @escaping @Sendable (DeferredResponse) -> Void) -> HTTPResponse {
        HTTPResponse(status: 0, body: .deferred(start))
    }

    /// No answer, only `action` on the connection (`.reset` or `.goAwayUnanswered`). Its status,
    /// 0, is what the access log and the request metrics record.
    public static func unanswered(_ action: ConnectionAction) -> HTTPResponse {
        var response = HTTPResponse(status: 0)
        response.connectionAction = action
        return response
    }

    /// A response with a JSON body.
    public static func json(_ status: Int, _ body: [UInt8], headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        // Most JSON answers have no other header: they share one header list.
        guard headers.count > 0 else { return HTTPResponse(status: status, headers: jsonHeaders, body: .bytes(body)) }
        var headers = headers
        headers.set("content-type", "application/json; charset=UTF-8")
        return HTTPResponse(status: status, headers: headers, body: .bytes(body))
    }

    private static let jsonHeaders: HTTPHeaders = ["content-type": "application/json; charset=UTF-8"]

    /// A response with a JSON body given as text.
    public static func json(_ status: Int, _ text: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        json(status, Array(text.utf8), headers: headers)
    }

    /// A plain-text response.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": contentType], body: .bytes(Array(text.utf8)))
    }

    /// The standard reason phrase of a status code, for HTTP/1.x status lines.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Payload Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
