import ByteCoding

/// HTTP/1.1 on a connection: parses requests with `HTTP1Parser`, answers them in order
/// (pipelining), streams chunked bodies, and hands over to HTTP/2 on `Upgrade: h2c`.
final class HTTP1Handler: ConnectionProtocol, ResponseStreamSink {
    /// Input kept while a streaming response holds the connection, before the client is dropped.
    private static let stashLimit = 2_097_152

    /// Strong: the cycle with `Connection` is broken when the connection closes and drops its protocol.
    let connection: Connection
    private var parser: HTTP1Parser
    /// Bytes received but not parsed yet (pipelined behind a streaming response).
    private var stash: [UInt8] = []
    private var head: HTTP1RequestHead?
    private var body: [UInt8] = []
    private var requestStartedAt: UInt64?
    private var streaming: ResponseStream?
    /// The answer being waited for (a deferred response); later requests wait behind it.
    private var awaiting: DeferredResponse?
    private var streamingChunked = false
    private var streamingKeepAlive = false
    private var stopped = false
    private var shuttingDown = false
    /// Requests are set aside in `stash` because the answers before them fill the output up to
    /// `Connection.outputHighWater`; `fillOutput` takes them up again once it has room.
    private var pausedForOutput = false

    init(connection: Connection) {
        self.connection = connection
        let configuration = connection.context.configuration
        parser = HTTP1Parser(limits: HTTP1Parser.Limits(
            maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes
        ))
    }

    // MARK: ConnectionProtocol

    func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !stopped else { return }
        if streaming != nil || awaiting != nil || !stash.isEmpty {
            stash += bytes
            if stash.count > Self.stashLimit { connection.close() }
            if streaming == nil && awaiting == nil { processStash() }
            return
        }
        let consumed = process(bytes)
        if consumed < bytes.count && !stopped {
            stash += UnsafeRawBufferPointer(rebasing: bytes[consumed...])
        }
    }

    func fillOutput() {
        guard pausedForOutput, streaming == nil, awaiting == nil, !stopped else { return }
        processStash()
    }
    var wantsWrite: Bool { false }

    func expireSlowRequests(now: UInt64, headerLimit: UInt64, bodyLimit: UInt64) -> Bool {
        guard !stopped, let started = requestStartedAt else { return false }
        let inHeader = head == nil && !parser.isMidRequest
        if inHeader && now &- started > headerLimit {
            fail(status: 408, message: "The request header was not received in time.")
            return true
        }
        // Past the header and not yet answered: the body is still coming.
        if !inHeader && now &- started > bodyLimit {
            fail(status: 408, message: "The request body was not received in time.")
            return true
        }
        return false
    }

    var isStreaming: Bool { streaming != nil || awaiting != nil }

    func peerClosed() {
        streaming?.clientLeft()
        streaming = nil
        awaiting?.cancel()
        awaiting = nil
        stopped = true
    }

    func beginShutdown() {
        shuttingDown = true
        if let streaming {
            streaming.finish()
        } else if head == nil && !parser.isMidRequest && awaiting == nil {
            stopped = true
            connection.closeAfterFlush()
        }
    }

    func connectionClosed() {
        streaming?.clientLeft()
        streaming = nil
        awaiting?.cancel()
        awaiting = nil
        stopped = true
    }

    func timedOut() {
        stopped = true
        connection.close()
    }

    // MARK: parsing

    private func processStash() {
        let pending = stash
        stash = []
        let consumed = pending.withUnsafeBytes { process($0) }
        if consumed < pending.count && !stopped {
            stash = Array(pending[consumed...])
        }
    }

    /// Parses and answers requests until the bytes run out or the connection must pause;
    /// returns how many bytes were used.
    private func process(_ bytes: UnsafeRawBufferPointer) -> Int {
        // Cleared first: a flush from within (a streaming answer's first write) must not come
        // back here through `fillOutput`.
        pausedForOutput = false
        var offset = 0
        while offset < bytes.count && !stopped && streaming == nil && awaiting == nil {
            // A client may pipeline requests for large answers without reading them: the
            // answers wait in memory, so the requests behind them wait unparsed (RFC 9112 §9.3.2
            // lets a server take pipelined requests at its own pace).
            if connection.pendingOutput >= Connection.outputHighWater {
                pausedForOutput = true
                break
            }
            if head == nil && !parser.isMidRequest && requestStartedAt == nil {
                requestStartedAt = MonotonicClock.now()
            }
            let step: (consumed: Int, events: [HTTP1ParserEvent])
            do {
                step = try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            } catch {
                fail(status: error.status, message: Self.message(for: error, limits: parser.limits))
                return bytes.count
            }
            offset += step.consumed
            for event in step.events {
                switch event {
                case .head(let requestHead):
                    head = requestHead
                    body = []
                    if requestHead.expectsContinue && requestHead.version == .http11 {
                        connection.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    }
                case .body(let chunk):
                    body += chunk
                case .end:
                    if head?.method == "CONNECT", let interceptsTunnel = connection.context.configuration.interceptsTunnel {
                        answerConnect(interceptsTunnel, pendingInput: bytes.count - offset)
                        return bytes.count
                    }
                    if let upgraded = dispatch() {
                        upgraded.receive(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                        return bytes.count
                    }
                    // The answer closed (or reset) the connection: the requests behind it go unread.
                    if stopped { return bytes.count }
                }
            }
            if step.consumed == 0 && step.events.isEmpty { break }
        }
        return offset
    }

    private static func message(for error: HTTP1ParseError, limits: HTTP1Parser.Limits) -> String {
        switch error {
        case .badRequest(let reason): return "Malformed HTTP request: \(reason)."
        case .headersTooLarge: return "The request's header block is larger than the limit of \(limits.maxHeaderBytes) bytes."
        case .tooManyHeaderLines: return "The request's header block has more than \(limits.maxHeaderCount) lines."
        case .bodyTooLarge: return "The request body is larger than the limit of \(limits.maxBodyBytes) bytes."
        case .uriTooLong: return "The request line is too long."
        case .notImplemented(let what): return "Not implemented: \(what)."
        case .versionNotSupported: return "Only HTTP/1.0 and HTTP/1.1 requests are accepted here (HTTP/2 needs the connection preface)."
        }
    }

    /// `CONNECT host:port`: a tunnel into this server for a host it intercepts, 403 for others,
    /// 400 for a target that is not `host:port` (`ConnectAuthority`).
    private func answerConnect(_ interceptsTunnel: @Sendable (String, Int) -> Bool, pendingInput: Int) {
        guard let requestHead = head else { return }
        head = nil
        let startedAt = requestStartedAt ?? MonotonicClock.now()
        requestStartedAt = nil
        let request = HTTPRequest(
            method: "CONNECT", target: requestHead.target, version: .http1_1, isSecure: connection.isSecure,
            authority: requestHead.target, remoteAddress: connection.remoteAddress)
        let context = connection.context
        func refuse(_ status: Int, _ message: String) {
            context.log(request, status: status, startedAt: startedAt)
            write(context.configuration.errorResponse(status, message, nil), version: .http1_1, keepAlive: false, isHead: false)
            stopped = true
            connection.closeAfterFlush()
        }
        let target = requestHead.target
        guard let authority = ConnectAuthority(target) else {
            return refuse(400, "Malformed HTTP request: CONNECT needs host:port, a host then a port of 1 to 5 digits up to 65535 (RFC 9112 authority-form).")
        }
        guard !connection.isSecure, interceptsTunnel(authority.host.lowercased(), authority.port) else {
            return refuse(403, connection.isSecure
                ? "CONNECT is taken on the emulator's plain port only."
                : "The emulator tunnels only the Google and Apple API hosts it stands in for; \(target) is not one (docs/interception.md).")
        }
        context.log(request, status: 200, startedAt: startedAt)
        stopped = true
        connection.send(Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
        connection.openTunnel(pendingInput: pendingInput)
    }

    /// Answers a request the server cannot parse, then closes.
    private func fail(status: Int, message: String) {
        stopped = true
        let context = connection.context
        let request = HTTPRequest(method: head?.method ?? "-", target: head?.target ?? "-", remoteAddress: connection.remoteAddress)
        context.log(request, status: status, startedAt: requestStartedAt ?? MonotonicClock.now())
        write(context.configuration.errorResponse(status, message, nil), version: .http1_1, keepAlive: false, isHead: false)
        connection.closeAfterFlush()
    }

    // MARK: answering

    /// Answers the request just read. Returns the HTTP/2 handler when the connection upgraded.
    private func dispatch() -> HTTP2Handler? {
        guard let requestHead = head else { return nil }
        head = nil
        let startedAt = requestStartedAt ?? MonotonicClock.now()
        requestStartedAt = nil
        let version: HTTPVersion = requestHead.version == .http10 ? .http1_0 : .http1_1
        var request = HTTPRequest(
            method: requestHead.method, target: requestHead.target, headers: requestHead.headers, body: body,
            version: version, isSecure: connection.isSecure, authority: requestHead.headers["host"],
            remoteAddress: connection.remoteAddress
        )
        request.connection = connection.session
        if body.count >= Connection.largeRequestBody { FreeMemory.releaseSoon() }
        body = []
        if requestHead.upgradeToH2C && !connection.isSecure && request.body.isEmpty && !shuttingDown,
           let settings = requestHead.http2Settings.flatMap({ Base64URL.decode($0, lenient: true) }) {
            connection.send(Array("HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: h2c\r\n\r\n".utf8))
            stopped = true
            let http2 = HTTP2Handler(connection: connection, upgrading: request, settings: settings)
            connection.switchProtocol(to: http2)
            return http2
        }
        let isHead = request.method == "HEAD"
        var held = 0
        let response = connection.context.respond(to: request, sendsBody: !isHead, startedAt: startedAt, heldBytes: &held)
        let keepAlive = requestHead.keepAlive && !shuttingDown
        write(response, version: version, keepAlive: keepAlive, isHead: isHead)
        // Counted until the socket took the last byte, or the connection closed first.
        if held > 0 { connection.whenSent { [held] _ in LargeAnswerBudget.release(held) } }
        return nil
    }

    private func write(_ response: HTTPResponse, version: HTTPVersion, keepAlive: Bool, isHead: Bool) {
        if case .deferred(let start) = response.body {
            // The cycle through the closure ends when the answer comes or the client leaves.
            let later = DeferredResponse(loop: connection.context.loop) { [self] answer in
                answerLater(answer, version: version, keepAlive: keepAlive, isHead: isHead)
            }
            awaiting = later
            start(later)
            return
        }
        var keepAlive = keepAlive
        switch response.connectionAction {
        case .reset?:
            stopped = true
            connection.reset()
            return
        case .goAwayUnanswered?:
            // No GOAWAY in HTTP/1.1: a close without an answer, after the answers queued before.
            stopped = true
            connection.closeAfterFlush()
            return
        case .goAwayAfterAnswer?:
            keepAlive = false
        case nil:
            break
        }
        // The head is put together as bytes: as a `String` made by concatenation and
        // interpolation, each field decoded into strings of its own first, it cost more than
        // parsing the request.
        var headBytes: [UInt8] = []
        headBytes.reserveCapacity(256)
        func add(_ text: StaticString) { text.withUTF8Buffer { headBytes += $0 } }
        func add(_ bytes: UnsafeBufferPointer<UInt8>) { headBytes += bytes }
        func add(_ number: Int) { DecimalDigits.withDigits(of: UInt64(number)) { headBytes += $0 } }
        add("HTTP/1.1 ")
        add(response.status)
        add(" ")
        headBytes += HTTPResponse.reasonPhrase(response.status).utf8
        add("\r\n")
        response.headers.withFieldBytes { fields in
            for (name, value) in fields where !Self.isFraming(name) {
                add(name)
                add(": ")
                add(value)
                add("\r\n")
            }
        }
        var bodyBytes: [UInt8]?
        switch response.body {
        case .bytes(let bytes):
            add("content-length: ")
            add(bytes.count)
            add("\r\n")
            bodyBytes = bytes
        case .deferred:
            return  // Taken care of above.
        case .stream:
            if version == .http1_1 {
                add("transfer-encoding: chunked\r\n")
            } else {
                keepAlive = false
            }
        }
        if !keepAlive {
            add("connection: close\r\n")
        } else if version == .http1_0 {
            add("connection: keep-alive\r\n")
        }
        add("\r\n")
        connection.send(headBytes)
        if let bodyBytes, !isHead { connection.send(bodyBytes) }
        switch response.body {
        case .bytes:
            if !keepAlive {
                stopped = true
                connection.closeAfterFlush()
            }
        case .deferred:
            break
        case .stream(let start):
            if isHead {
                ResponseStream.startClosed(start, sink: self, loop: connection.context.loop)
                if !keepAlive {
                    // After "connection: close" the requests behind this one go unread (RFC 9112 §9.6).
                    stopped = true
                    connection.closeAfterFlush()
                }
                return
            }
            streamingChunked = version == .http1_1
            streamingKeepAlive = keepAlive
            let stream = ResponseStream(sink: self, loop: connection.context.loop)
            streaming = stream
            start(stream)
        }
    }

    /// The deferred answer came: send it, then carry on with the requests read meanwhile.
    private func answerLater(_ response: HTTPResponse, version: HTTPVersion, keepAlive: Bool, isHead: Bool) {
        awaiting = nil
        guard !stopped else { return }
        write(response, version: version, keepAlive: keepAlive && !shuttingDown, isHead: isHead)
        if streaming == nil && awaiting == nil && !stopped {
            processStash()
            if shuttingDown && head == nil && !parser.isMidRequest && streaming == nil && awaiting == nil && !stopped {
                stopped = true
                connection.closeAfterFlush()
            }
        }
        connection.flush()
    }

    /// Headers the server writes itself from the body and the connection's state.
    private static func isFraming(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.equals("content-length") || name.equals("transfer-encoding") || name.equals("connection") || name.equals("keep-alive")
    }

    // MARK: ResponseStreamSink

    func streamWrite(_ bytes: [UInt8], whenSent: SentCallback?, from stream: ResponseStream) {
        guard streaming === stream, !bytes.isEmpty else {
            whenSent?(streaming === stream)
            return
        }
        if streamingChunked {
            connection.send(Array((String(bytes.count, radix: 16) + "\r\n").utf8))
            connection.send(bytes)
            connection.send([13, 10])
        } else {
            connection.send(bytes)
        }
        if let whenSent { connection.whenSent(whenSent) }
        connection.flush()
        // A client that does not read its stream is dropped; what was not sent goes back to
        // the device's queue through the callbacks.
        if connection.pendingOutput > Connection.outputLimit { connection.close() }
    }

    func streamFinish(from stream: ResponseStream) {
        guard streaming === stream else { return }
        streaming = nil
        if streamingChunked { connection.send(Array("0\r\n\r\n".utf8)) }
        if !streamingKeepAlive || shuttingDown {
            stopped = true
            connection.closeAfterFlush()
        } else {
            processStash()
        }
        connection.flush()
    }
}
