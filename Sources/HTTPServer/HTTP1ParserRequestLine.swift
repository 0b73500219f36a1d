extension HTTP1Parser {
    /// `method SP request-target SP HTTP-version`, validated (RFC 9112 §3).
    struct RequestLine {
        var method: String
        var target: String
        var version: HTTP1Version

        /// Parses a request line given without its CRLF.
        init(parsing line: UnsafeRawBufferPointer) throws(HTTP1ParseError) {
            let count = line.count
            var index = 0
            while index < count, ASCII.isToken(line[index]) { index += 1 }
            guard index > 0, index < count, line[index] == ASCII.space else {
                throw .badRequest(index == 0 || index == count ? "malformed request line" : "invalid method")
            }
            let methodEnd = index
            index += 1
            let targetStart = index
            while index < count, line[index] != ASCII.space {
                guard ASCII.isTarget(line[index]) else { throw .badRequest("invalid character in request target") }
                index += 1
            }
            guard index > targetStart, index < count else { throw .badRequest("malformed request line") }
            let targetEnd = index
            version = try Self.version(UnsafeRawBufferPointer(rebasing: line[(index + 1)...]))
            method = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<methodEnd]), as: UTF8.self)
            target = String(decoding: UnsafeRawBufferPointer(rebasing: line[targetStart..<targetEnd]), as: UTF8.self)
        }

        /// `HTTP/d.d`, case-sensitive. A 1.x minor version above 1 is served as 1.1 (RFC 9110 §2.5).
        private static func version(_ bytes: UnsafeRawBufferPointer) throws(HTTP1ParseError) -> HTTP1Version {
            guard bytes.count == 8, bytes[0] == 0x48, bytes[1] == 0x54, bytes[2] == 0x54, bytes[3] == 0x50,
                  bytes[4] == 0x2F, ASCII.isDigit(bytes[5]), bytes[6] == 0x2E, ASCII.isDigit(bytes[7])
            else { throw .badRequest("malformed HTTP version") }
            guard bytes[5] == 0x31 else { throw .versionNotSupported }
            return bytes[7] == 0x30 ? .http10 : .http11
        }
    }
}
