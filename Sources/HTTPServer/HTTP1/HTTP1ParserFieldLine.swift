import ByteCoding

extension HTTP1Parser {
    /// Where the name and the value of one `field-name ":" OWS field-value OWS` line lie (RFC 9112 §5).
    struct FieldLine {
        /// The field name: a token, nothing before or after it.
        var name: Range<Int>
        /// The field value without the surrounding whitespace.
        var value: Range<Int>

        /// Validates a header or trailer line given without its CRLF.
        init(parsing line: UnsafeRawBufferPointer) throws(HTTP1ParseError) {
            let count = line.count
            if ASCII.isWhitespace(line[0]) {
                // obs-fold, or whitespace before the first field name: both smuggling vectors.
                throw .badRequest("obsolete line folding")
            }
            var index = 0
            while index < count, ASCII.isToken(line[index]) { index += 1 }
            guard index < count, line[index] == ASCII.colon else {
                if index == count { throw .badRequest("header line without a colon") }
                if ASCII.isWhitespace(line[index]) { throw .badRequest("whitespace before colon in header") }
                throw .badRequest("invalid character in header name")
            }
            guard index > 0 else { throw .badRequest("empty header name") }
            name = 0..<index
            index += 1
            var valueStart = index
            while valueStart < count, ASCII.isWhitespace(line[valueStart]) { valueStart += 1 }
            var valueEnd = count
            while valueEnd > valueStart, ASCII.isWhitespace(line[valueEnd - 1]) { valueEnd -= 1 }
            guard ASCIIScan.isFieldValue(UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd])) else {
                throw .badRequest("invalid character in header value")
            }
            value = valueStart..<valueEnd
        }
    }
}
