extension HTTP1Parser {
    /// `method SP request-target SP HTTP-version`, validated (RFC 9112 §3).
    struct RequestLine {
        var method: String
        /// The target in origin form (`/path?query`, or `*`, or a CONNECT's `host:port`).
        var target: String
        /// The host and port of an absolute-form target (`http://host:port/path`), which replaces
        /// the `Host` field (RFC 9112 §3.2.2); nil for every other form.
        var absoluteAuthority: String?
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
            let rawTarget = UnsafeRawBufferPointer(rebasing: line[targetStart..<targetEnd])
            if let authorityStart = Self.absoluteFormAuthorityStart(rawTarget) {
                // A server must accept the absolute form, as a proxy gets it (RFC 9112 §3.2.2).
                var pathStart = authorityStart
                while pathStart < rawTarget.count, rawTarget[pathStart] != UInt8(ascii: "/"),
                      rawTarget[pathStart] != UInt8(ascii: "?") { pathStart += 1 }
                guard pathStart > authorityStart else { throw .badRequest("absolute-form target without a host") }
                absoluteAuthority = String(
                    decoding: UnsafeRawBufferPointer(rebasing: rawTarget[authorityStart..<pathStart]), as: UTF8.self)
                let rest = String(decoding: UnsafeRawBufferPointer(rebasing: rawTarget[pathStart...]), as: UTF8.self)
                target = rest.first == "/" ? rest : "/" + rest
            } else {
                target = String(decoding: rawTarget, as: UTF8.self)
            }
        }

        /// Where the authority begins when `target` is `http://` or `https://` (scheme in any case).
        /// Inlined: nearly every target starts with `/`, and the call cost more than the test.
        @inline(__always)
        private static func absoluteFormAuthorityStart(_ target: UnsafeRawBufferPointer) -> Int? {
            guard target.count >= 7, target[0] != UInt8(ascii: "/") else { return nil }
            if ASCII.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: target[..<7]), "http://") {
                return 7
            }
            if target.count >= 8, ASCII.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: target[..<8]), "https://") {
                return 8
            }
            return nil
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
