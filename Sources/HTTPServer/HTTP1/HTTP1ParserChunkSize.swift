import ByteCoding

extension HTTP1Parser {
    /// Longest accepted `chunk-size [chunk-ext] CRLF` line; extensions are ignored, so there is no
    /// reason to hold more.
    static let maxChunkSizeLineBytes = 4_096

    /// The size from a `chunk-size *(BWS ";" ...)` line given without its CRLF (RFC 9112 §7.1).
    /// Extensions are checked for control characters only and then ignored.
    static func chunkSize(parsing line: UnsafeRawBufferPointer) throws(HTTP1ParseError) -> Int {
        let count = line.count
        var index = 0
        var size = 0
        while index < count, let digit = ASCII.hexValue(line[index]) {
            guard size <= Int.max >> 4 else { throw .badRequest("chunk size overflow") }
            size = size << 4 | digit
            index += 1
        }
        guard index > 0 else { throw .badRequest("invalid chunk size") }
        guard index < count else { return size }
        while index < count, ASCII.isWhitespace(line[index]) { index += 1 }
        guard index < count, line[index] == ASCII.semicolon else { throw .badRequest("invalid chunk size") }
        guard ASCIIScan.isFieldValue(UnsafeRawBufferPointer(rebasing: line[index...])) else {
            throw .badRequest("invalid chunk extension")
        }
        return size
    }
}
