extension HTTP1Parser {
    /// How the body of a request is delimited (RFC 9112 §6.3).
    enum BodyFraming: Equatable {
        /// No Content-Length and no Transfer-Encoding: the body is empty.
        case none
        case contentLength(Int)
        case chunked
    }

    /// Collects the header lines of one request and, at the end of the head, decides its framing and
    /// connection semantics. Fields that matter are recognised on the raw bytes as they arrive, so the
    /// head is never searched again.
    struct HeadBuilder {
        private let requestLine: RequestLine
        private var headers = HTTPHeaders()
        /// Saturates at Int.max: any value that large is over every limit anyway.
        private var contentLength: Int?
        private var hasTransferEncoding = false
        private var chunkedCodings = 0
        private var unsupportedCoding: String?
        private var connectionClose = false
        private var connectionKeepAlive = false
        private var connectionUpgrade = false
        private var upgradeListsH2C = false
        private var expectsContinue = false
        private var http2Settings: String?
        private var http2SettingsCount = 0
        private var hostCount = 0

        init(requestLine: RequestLine) {
            self.requestLine = requestLine
        }

        /// Records one validated header line.
        mutating func add(_ field: FieldLine, of line: UnsafeRawBufferPointer) throws(HTTP1ParseError) {
            let name = UnsafeRawBufferPointer(rebasing: line[field.name])
            let value = UnsafeRawBufferPointer(rebasing: line[field.value])
            headers.append(name.assumingMemoryBound(to: UInt8.self), value.assumingMemoryBound(to: UInt8.self), lowercasing: true)
            switch name.count {
            case 4 where ASCII.equalsIgnoringCase(name, "host"):
                hostCount += 1
                if hostCount > 1 { throw .badRequest("multiple Host headers") }
            case 6 where ASCII.equalsIgnoringCase(name, "expect"):
                ASCII.forEachListElement(value) { if ASCII.equalsIgnoringCase($0, "100-continue") { expectsContinue = true } }
            case 7 where ASCII.equalsIgnoringCase(name, "upgrade"):
                ASCII.forEachListElement(value) { if ASCII.equalsIgnoringCase($0, "h2c") { upgradeListsH2C = true } }
            case 10 where ASCII.equalsIgnoringCase(name, "connection"):
                ASCII.forEachListElement(value) { option in
                    if ASCII.equalsIgnoringCase(option, "close") { connectionClose = true }
                    else if ASCII.equalsIgnoringCase(option, "keep-alive") { connectionKeepAlive = true }
                    else if ASCII.equalsIgnoringCase(option, "upgrade") { connectionUpgrade = true }
                }
            case 14 where ASCII.equalsIgnoringCase(name, "content-length"):
                try addContentLength(value)
            case 14 where ASCII.equalsIgnoringCase(name, "http2-settings"):
                http2SettingsCount += 1
                if http2Settings == nil { http2Settings = String(decoding: value, as: UTF8.self) }
            case 17 where ASCII.equalsIgnoringCase(name, "transfer-encoding"):
                hasTransferEncoding = true
                ASCII.forEachListElement(value) { coding in
                    if ASCII.equalsIgnoringCase(coding, "chunked") { chunkedCodings += 1 }
                    else if unsupportedCoding == nil { unsupportedCoding = String(decoding: coding, as: UTF8.self) }
                }
            default:
                break
            }
        }

        /// Digits only; repeated fields must agree (RFC 9110 §8.6), or the framing is ambiguous.
        private mutating func addContentLength(_ value: UnsafeRawBufferPointer) throws(HTTP1ParseError) {
            guard !value.isEmpty else { throw .badRequest("invalid Content-Length") }
            var length = 0
            for byte in value {
                guard ASCII.isDigit(byte) else { throw .badRequest("invalid Content-Length") }
                let (shifted, overflowTimes) = length.multipliedReportingOverflow(by: 10)
                let (sum, overflowPlus) = shifted.addingReportingOverflow(Int(byte &- 0x30))
                length = overflowTimes || overflowPlus ? Int.max : sum
            }
            if let previous = contentLength, previous != length {
                throw .badRequest("conflicting Content-Length values")
            }
            contentLength = length
        }

        /// The finished head and its body framing, or why the request cannot be served.
        func finish(limits: Limits) throws(HTTP1ParseError) -> (HTTP1RequestHead, BodyFraming) {
            let version = requestLine.version
            let framing: BodyFraming
            if hasTransferEncoding {
                // RFC 9112 §6.1, §6.3: either combination leaves the body length ambiguous.
                if contentLength != nil { throw .badRequest("both Content-Length and Transfer-Encoding") }
                if version == .http10 { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
                if let coding = unsupportedCoding { throw .notImplemented("Transfer-Encoding \(coding)") }
                if chunkedCodings != 1 {
                    throw .badRequest(chunkedCodings == 0 ? "empty Transfer-Encoding" : "chunked applied more than once")
                }
                framing = .chunked
            } else if let length = contentLength {
                if length > limits.maxBodyBytes { throw .bodyTooLarge }
                framing = .contentLength(length)
            } else {
                framing = .none
            }
            let isHTTP11 = version == .http11
            // An absolute-form target's host stands for the `Host` field (RFC 9112 §3.2.2). In the
            // fields, not in a field of the head of its own: each copy of the head would retain
            // and release that too.
            var fields = headers
            if let authority = requestLine.absoluteAuthority { fields.set("host", authority) }
            let head = HTTP1RequestHead(
                method: requestLine.method,
                target: requestLine.target,
                version: version,
                headers: fields,
                keepAlive: !connectionClose && (isHTTP11 || connectionKeepAlive),
                expectsContinue: isHTTP11 && expectsContinue,
                // RFC 9110 §7.8: Upgrade in an HTTP/1.0 request is ignored; RFC 7540 §3.2: exactly one
                // HTTP2-Settings.
                upgradeToH2C: isHTTP11 && upgradeListsH2C && connectionUpgrade && http2SettingsCount == 1,
                http2Settings: http2Settings
            )
            return (head, framing)
        }
    }
}
