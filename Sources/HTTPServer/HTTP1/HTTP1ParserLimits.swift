extension HTTP1Parser {
    /// Bounds on what one request may make the parser hold or accept.
    struct Limits: Sendable {
        /// Bytes of the head (request line, header lines, their line endings and any empty lines
        /// before the request line); also the bound on a trailer section. Over it: 431.
        var maxHeaderBytes = 65_536
        /// Decoded body bytes. Over it: 413.
        var maxBodyBytes = 1_048_576
        /// Bytes of the request line including its CRLF. Over it: 414.
        var maxRequestLineBytes = 8_192
        /// Header lines in the head, and separately trailer lines. Over it: 431.
        var maxHeaderCount = 100
    }
}
