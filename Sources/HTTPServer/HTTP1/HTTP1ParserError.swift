/// Why an HTTP/1.x request was rejected; each case maps to the status the connection answers with
/// before it closes.
enum HTTP1ParseError: Error, Equatable {
    /// Malformed or ambiguous request (400), with a short reason for the response body.
    case badRequest(String)
    /// Header block (or trailer section) over the byte limit (431).
    case headersTooLarge
    /// Header block (or trailer section) of more lines than the limit (431).
    case tooManyHeaderLines
    /// Body over the byte limit (413).
    case bodyTooLarge
    /// Request line over the byte limit (414).
    case uriTooLong
    /// A feature the server does not implement, such as a transfer coding other than chunked (501).
    case notImplemented(String)
    /// A request line with an HTTP version other than 1.x (505).
    case versionNotSupported

    /// The HTTP status code to answer with.
    var status: Int {
        switch self {
        case .badRequest: 400
        case .headersTooLarge, .tooManyHeaderLines: 431
        case .bodyTooLarge: 413
        case .uriTooLong: 414
        case .notImplemented: 501
        case .versionNotSupported: 505
        }
    }
}
