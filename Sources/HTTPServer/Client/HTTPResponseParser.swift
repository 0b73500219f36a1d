/// Reads an HTTP/1.1 response from the bytes received so far: `HTTPClient`'s one parser of what a
/// server sends (fuzzed by scripts/fuzz.sh http-response). Whole responses only: the client asks
/// with `Connection: close` and reads until the response is complete or the server closes.
enum HTTPResponseParser {
    /// The longest status line and header block taken.
    static let maxHeadBytes = 65_536
    /// The largest body taken.
    static let maxBodyBytes = 16 << 20

    /// The response `bytes` hold, once it is complete; nil while more is needed. `ended`: the
    /// server has closed, so what there is must be the whole response.
    static func response(in bytes: [UInt8], ended: Bool) throws(HTTPClientError) -> HTTPClientResponse? {
        var start = 0
        while true {
            guard let headEnd = headEnd(in: bytes, from: start) else {
                if bytes.count - start > maxHeadBytes { throw HTTPClientError("the response's header block is over \(maxHeadBytes) bytes") }
                if ended { throw HTTPClientError(start == bytes.count ? "the server closed without answering" : "the server closed in the middle of the header block") }
                return nil
            }
            guard headEnd - start <= maxHeadBytes else { throw HTTPClientError("the response's header block is over \(maxHeadBytes) bytes") }
            let (status, headers) = try head(bytes[start..<headEnd - 4])
            // An interim answer (100 Continue, 103 Early Hints) comes before the real one.
            if (100..<200).contains(status) && status != 101 {
                start = headEnd
                continue
            }
            guard let body = try body(bytes[headEnd...], status: status, headers: headers, ended: ended) else { return nil }
            return HTTPClientResponse(status: status, headers: headers, body: body)
        }
    }

    /// The index just past the `\r\n\r\n` that ends the head starting at `start`, if it is there.
    private static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index + 4 }
            index += 1
        }
        return nil
    }

    /// The status line and header fields.
    private static func head(_ bytes: ArraySlice<UInt8>) throws(HTTPClientError) -> (Int, [HTTPClientHeader]) {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        let statusLine = lines.removeFirst()
        // "HTTP/1.x NNN reason": the version, a space, three digits, then a space or the end.
        let prefix = Array("HTTP/1.".utf8)
        let digits = statusLine.dropFirst(prefix.count + 2).prefix(3)
        guard statusLine.starts(with: prefix), statusLine.count >= prefix.count + 5,
              isDigit(statusLine[statusLine.startIndex + prefix.count]),
              statusLine[statusLine.startIndex + prefix.count + 1] == 32,
              digits.count == 3, digits.allSatisfy(isDigit),
              statusLine.count == prefix.count + 5 || statusLine[statusLine.startIndex + prefix.count + 5] == 32
        else {
            throw HTTPClientError("not an HTTP/1.1 answer: \"\(String(decoding: statusLine.prefix(80), as: UTF8.self))\"")
        }
        let status = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        var headers: [HTTPClientHeader] = []
        for line in lines {
            guard let colon = line.firstIndex(of: 58), colon > line.startIndex else {
                throw HTTPClientError("a header line without a name: \"\(String(decoding: line.prefix(80), as: UTF8.self))\"")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = line[(colon + 1)...].drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 }.reversed()
            headers.append(HTTPClientHeader(name: name, value: String(decoding: value, as: UTF8.self)))
        }
        return (status, headers)
    }

    /// The body after the head, by the response's framing; nil while more is needed.
    private static func body(
        _ bytes: ArraySlice<UInt8>, status: Int, headers: [HTTPClientHeader], ended: Bool
    ) throws(HTTPClientError) -> [UInt8]? {
        if status == 204 || status == 304 { return [] }
        if let encoding = headers.last(where: { $0.name == "transfer-encoding" })?.value.lowercased() {
            // Chunked is the last coding when the body is chunked (RFC 9112, 6.3).
            guard encoding.split(separator: ",").last?.filter({ $0 != " " && $0 != "\t" }) == "chunked" else {
                return try untilClose(bytes, ended: ended)
            }
            return try chunked(bytes, ended: ended)
        }
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        guard let text = lengths.first else { return try untilClose(bytes, ended: ended) }
        guard lengths.allSatisfy({ $0 == text }), !text.isEmpty, text.utf8.allSatisfy(isDigit), text.count <= 12,
              let length = Int(text)
        else { throw HTTPClientError("a Content-Length that is not one number: \(lengths.joined(separator: ", "))") }
        guard length <= maxBodyBytes else { throw HTTPClientError("a body of \(length) bytes, over \(maxBodyBytes)") }
        if bytes.count >= length { return Array(bytes.prefix(length)) }
        if ended { throw HTTPClientError("the server closed after \(bytes.count) of \(length) bytes of the body") }
        return nil
    }

    private static func untilClose(_ bytes: ArraySlice<UInt8>, ended: Bool) throws(HTTPClientError) -> [UInt8]? {
        guard bytes.count <= maxBodyBytes else { throw HTTPClientError("a body over \(maxBodyBytes) bytes") }
        return ended ? Array(bytes) : nil
    }

    /// A chunked body: hex sizes, each chunk, a last chunk of size 0 and its trailer.
    private static func chunked(_ bytes: ArraySlice<UInt8>, ended: Bool) throws(HTTPClientError) -> [UInt8]? {
        var body: [UInt8] = []
        var index = bytes.startIndex
        func line() -> ArraySlice<UInt8>? {
            guard let newline = bytes[index...].firstIndex(of: 10) else { return nil }
            defer { index = newline + 1 }
            let line = bytes[index..<newline]
            return line.last == 13 ? line.dropLast() : line
        }
        func incomplete() throws(HTTPClientError) -> [UInt8]? {
            if ended { throw HTTPClientError("the server closed in the middle of a chunked body") }
            if bytes.count > maxBodyBytes + maxHeadBytes { throw HTTPClientError("a body over \(maxBodyBytes) bytes") }
            return nil
        }
        while true {
            guard let sizeLine = line() else { return try incomplete() }
            let hex = sizeLine.prefix { $0 != 59 }.reversed().drop { $0 == 32 || $0 == 9 }.reversed()
            guard !hex.isEmpty, hex.count <= 8, hex.allSatisfy(isHexDigit), let size = Int(String(decoding: hex, as: UTF8.self), radix: 16) else {
                throw HTTPClientError("a chunk size that is not hexadecimal")
            }
            if size == 0 {
                // The trailer: fields, then an empty line.
                while true {
                    guard let trailer = line() else { return try incomplete() }
                    if trailer.isEmpty { return body }
                }
            }
            guard body.count + size <= maxBodyBytes else { throw HTTPClientError("a body over \(maxBodyBytes) bytes") }
            guard bytes.endIndex - index >= size + 2 else { return try incomplete() }
            body += bytes[index..<index + size]
            index += size
            guard bytes[index] == 13, bytes[index + 1] == 10 else { throw HTTPClientError("a chunk not followed by CRLF") }
            index += 2
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20 >= 97 && byte | 0x20 <= 102) }
}
