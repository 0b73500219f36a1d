/// What the HTTP/1.x parser found in the bytes it was given, in order.
enum HTTP1ParserEvent {
    /// The request head is complete.
    case head(HTTP1RequestHead)
    /// The next piece of the request body (decoded from chunked framing when the body was chunked).
    case body([UInt8])
    /// The request is complete; the parser stops right after it.
    case end
}
