/// Incremental, strict HTTP/1.x request parser (RFC 9112), one request at a time.
///
/// Decisions where the RFC leaves a choice:
/// - Lines must end in CRLF; a bare LF (or a stray CR) is rejected with 400, so that no peer can read
///   line boundaries differently from us.
/// - Empty lines before a request line are skipped (RFC 9112 §2.2); they count towards the head limit.
/// - obs-fold, whitespace before a colon, control characters in values, several Host fields, several
///   differing Content-Length values, Content-Length together with Transfer-Encoding, and
///   Transfer-Encoding in HTTP/1.0 are rejected with 400.
/// - A request without Content-Length or Transfer-Encoding has an empty body, whatever its method.
/// - A missing Host field is tolerated (hand-written test clients omit it).
///
/// After a thrown error the parser stays dead: every later call throws the same error.
struct HTTP1Parser {
    private enum State {
        case requestLine
        case headerLines
        case fixedBody(remaining: Int)
        case chunkSizeLine
        case chunkData(remaining: Int)
        case chunkDataCR
        case chunkDataLF
        case trailerLines
        case dead(HTTP1ParseError)
    }

    /// The bounds this parser holds requests to.
    let limits: Limits
    private var state = State.requestLine
    /// The start of a line whose LF has not arrived yet, bounded by the limit of the current state.
    private var partialLine: [UInt8] = []
    /// Bytes of the current head, or of the current trailer section.
    private var sectionBytes = 0
    /// Field lines of the current head, or of the current trailer section.
    private var sectionLines = 0
    private var pendingHead: HeadBuilder?
    private var chunkedBodyBytes = 0

    /// A parser waiting for the first byte of a request.
    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// True between a head and its end (a request is in progress).
    var isMidRequest: Bool {
        switch state {
        case .fixedBody, .chunkSizeLine, .chunkData, .chunkDataCR, .chunkDataLF, .trailerLines: true
        case .requestLine, .headerLines, .dead: false
        }
    }

    /// True when part of a request head has arrived but not all of it (a timeout or EOF now cuts a
    /// request short, rather than ending an idle connection).
    var hasPartialHead: Bool {
        switch state {
        case .headerLines: true
        case .requestLine: !partialLine.isEmpty
        default: false
        }
    }

    /// Parses as much of `bytes` as belongs to the current request and stops right after its `.end`
    /// event, so the caller can decide what comes next (the next pipelined request, or HTTP/2 after an
    /// h2c upgrade). Returns how many bytes were consumed and the events produced; the caller keeps the
    /// rest and feeds it again. A partial line is consumed and held internally, bounded by the limits.
    /// A call that throws returns no events: the request in progress is abandoned, and the caller
    /// answers `error.status` and closes.
    mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(HTTP1ParseError) -> (consumed: Int, events: [HTTP1ParserEvent]) {
        if case .dead(let error) = state { throw error }
        var events: [HTTP1ParserEvent] = []
        do {
            let consumed = try run(bytes, events: &events)
            return (consumed, events)
        } catch {
            state = .dead(error)
            partialLine = []
            pendingHead = nil
            throw error
        }
    }

    private mutating func run(_ bytes: UnsafeRawBufferPointer, events: inout [HTTP1ParserEvent]) throws(HTTP1ParseError) -> Int {
        let count = bytes.count
        var index = 0
        while index < count {
            switch state {
            case .requestLine, .headerLines, .chunkSizeLine, .trailerLines:
                guard let lf = ASCII.firstLF(in: bytes, from: index) else {
                    try checkLineLength(partialLine.count + count - index, complete: false)
                    partialLine.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index...]))
                    return count
                }
                let length = partialLine.count + lf + 1 - index
                try checkLineLength(length, complete: true)
                let ended: Bool
                if partialLine.isEmpty {
                    ended = try processLine(UnsafeRawBufferPointer(rebasing: bytes[index..<lf]), length: length, events: &events)
                } else {
                    partialLine.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<lf]))
                    // Moved out so that processing it can mutate self; moved back to keep its capacity.
                    var line: [UInt8] = []
                    swap(&line, &partialLine)
                    // withUnsafeBytes only rethrows untyped errors; Result carries the typed one across.
                    let outcome = line.withUnsafeBytes { line in
                        Result { () throws(HTTP1ParseError) in try processLine(line, length: length, events: &events) }
                    }
                    ended = try outcome.get()
                    line.removeAll(keepingCapacity: true)
                    swap(&line, &partialLine)
                }
                index = lf + 1
                if ended { return index }

            case .fixedBody(let remaining):
                let take = min(remaining, count - index)
                events.append(.body(Array(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))))
                index += take
                if take == remaining {
                    events.append(.end)
                    startNextRequest()
                    return index
                }
                state = .fixedBody(remaining: remaining - take)

            case .chunkData(let remaining):
                let take = min(remaining, count - index)
                events.append(.body(Array(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))))
                index += take
                chunkedBodyBytes += take
                state = take == remaining ? .chunkDataCR : .chunkData(remaining: remaining - take)

            case .chunkDataCR:
                guard bytes[index] == ASCII.cr else { throw .badRequest("missing CRLF after chunk data") }
                index += 1
                state = .chunkDataLF

            case .chunkDataLF:
                guard bytes[index] == ASCII.lf else { throw .badRequest("missing CRLF after chunk data") }
                index += 1
                state = .chunkSizeLine

            case .dead(let error):
                throw error
            }
        }
        return index
    }

    /// Throws as soon as a line of `length` bytes (at least `length + 1` once its LF arrives, when it is
    /// not `complete`) is certain to break the limit of the current state, before buffering it.
    private func checkLineLength(_ length: Int, complete: Bool) throws(HTTP1ParseError) {
        let atLeast = complete ? length : length + 1
        switch state {
        case .requestLine:
            if atLeast > limits.maxRequestLineBytes { throw .uriTooLong }
            if sectionBytes + atLeast > limits.maxHeaderBytes { throw .headersTooLarge }
        case .headerLines, .trailerLines:
            if sectionBytes + atLeast > limits.maxHeaderBytes { throw .headersTooLarge }
        case .chunkSizeLine:
            if atLeast > Self.maxChunkSizeLineBytes { throw .badRequest("chunk size line too long") }
        case .fixedBody, .chunkData, .chunkDataCR, .chunkDataLF, .dead:
            break
        }
    }

    /// Handles one complete line (`raw` is the line without its LF, `length` counts the LF); returns
    /// whether the request ended with it.
    private mutating func processLine(_ raw: UnsafeRawBufferPointer, length: Int, events: inout [HTTP1ParserEvent]) throws(HTTP1ParseError) -> Bool {
        guard raw.last == ASCII.cr else { throw .badRequest("line not terminated by CRLF") }
        let line = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 1)])
        switch state {
        case .requestLine:
            sectionBytes += length
            if line.isEmpty { return false }
            pendingHead = HeadBuilder(requestLine: try RequestLine(parsing: line))
            state = .headerLines
            return false

        case .headerLines:
            sectionBytes += length
            if line.isEmpty { return try finishHead(events: &events) }
            sectionLines += 1
            if sectionLines > limits.maxHeaderCount { throw .tooManyHeaderLines }
            let field = try FieldLine(parsing: line)
            try pendingHead!.add(field, of: line)
            return false

        case .chunkSizeLine:
            let size = try Self.chunkSize(parsing: line)
            if size == 0 {
                state = .trailerLines
                sectionBytes = 0
                sectionLines = 0
            } else {
                if size > limits.maxBodyBytes - chunkedBodyBytes { throw .bodyTooLarge }
                state = .chunkData(remaining: size)
            }
            return false

        case .trailerLines:
            sectionBytes += length
            if line.isEmpty {
                events.append(.end)
                startNextRequest()
                return true
            }
            sectionLines += 1
            if sectionLines > limits.maxHeaderCount { throw .tooManyHeaderLines }
            _ = try FieldLine(parsing: line)
            return false

        case .fixedBody, .chunkData, .chunkDataCR, .chunkDataLF, .dead:
            preconditionFailure("line in a state that reads no lines")
        }
    }

    private mutating func finishHead(events: inout [HTTP1ParserEvent]) throws(HTTP1ParseError) -> Bool {
        let (head, framing) = try pendingHead!.finish(limits: limits)
        pendingHead = nil
        events.append(.head(head))
        switch framing {
        case .none, .contentLength(0):
            events.append(.end)
            startNextRequest()
            return true
        case .contentLength(let length):
            state = .fixedBody(remaining: length)
        case .chunked:
            state = .chunkSizeLine
            chunkedBodyBytes = 0
        }
        return false
    }

    private mutating func startNextRequest() {
        state = .requestLine
        sectionBytes = 0
        sectionLines = 0
        pendingHead = nil
        chunkedBodyBytes = 0
    }
}
