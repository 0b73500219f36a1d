#if canImport(Glibc)
import Glibc
#endif
import CShims

/// One accepted socket: its transport (plain or TLS), the sniffing that picks the protocol, the
/// output buffer with back-pressure, and the timeouts. Lives on one loop.
final class Connection: LoopHandler {
    private enum Phase {
        /// Nothing read yet: is it TLS?
        case sniffing
        case handshaking(TLSSession)
        /// Plain or decrypted bytes, before the protocol is known: HTTP/2 preface or HTTP/1.1?
        case detecting
        case active(ConnectionProtocol)
        /// Answered and shut for writing; what the peer still sends is read and dropped, so that
        /// the kernel does not answer it with a reset that would destroy the answer in flight.
        case lingering(since: UInt64)
        case closed
    }

    /// The HTTP/2 connection preface.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// Stop reading when this much output waits for the peer.
    static let outputHighWater = 262_144
    /// What streaming responses may hold unsent for a client that does not read them: on
    /// HTTP/1.1 the connection whose stream goes past it is dropped; on HTTP/2 it counts all
    /// streaming responses together with the connection's output, and the stream whose write
    /// goes past it is reset. A whole answer (a large state export) is held until it is sent:
    /// it was built in memory anyway, and requests behind it wait (`outputHighWater`).
    static let outputLimit = 8_388_608
    /// A lingering close ends when the peer closes, after this long without a byte from it, or
    /// after `lingerTotal` in all (nginx's `lingering_timeout` and `lingering_time`).
    static let lingerQuiet = MonotonicClock.nanoseconds(seconds: 5)
    static let lingerTotal = MonotonicClock.nanoseconds(seconds: 30)
    /// A connection that held more than this returns freed memory to the system when it closes.
    static let largeOutput = 1_048_576
    /// The memory of request bodies this large is returned to the system after a burst of them
    /// (`FreeMemory.releaseSoon()`): an HTTP/2 client may send hundreds at once, interleaved, and
    /// the allocator would otherwise keep their peak for reuse.
    static let largeRequestBody = 262_144

    let fd: Int32
    let context: LoopContext
    let remoteAddress: String
    private(set) var tls: TLSSession?
    private var phase = Phase.sniffing
    private var detectionBuffer: [UInt8] = []
    private var output = OutputBuffer()
    /// Bytes ever queued for the peer and ever handed to the socket (or TLS), so that callbacks
    /// can wait for a position in the stream of output.
    private var queuedTotal: UInt64 = 0
    private var sentTotal: UInt64 = 0
    private var sentCallbacks = SentCallbacks()
    /// Set once the connection has held more than `largeOutput` bytes unsent.
    var heldLargeOutput = false
    private var readPaused = false
    private var wantsWritable = false
    private var closeWhenFlushed = false
    /// The peer ended its side, or the server is stopping: a close does not linger.
    private var closesWithoutLingering = false
    /// Set while `flush` runs: what a protocol does from `fillOutput` may ask for a flush, which
    /// the running one's loop then does.
    private var flushing = false
    private var lastActivity: UInt64
    /// When the connection was accepted, or its tunnel opened: the TLS handshake must end in
    /// the header timeout from then.
    private var acceptedAt: UInt64

    init(fd: Int32, context: LoopContext) {
        self.fd = fd
        self.context = context
        remoteAddress = Socket.peerName(fd)
        acceptedAt = MonotonicClock.now()
        lastActivity = acceptedAt
        try? Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    /// What routes keep on this connection; made at its first request, when the TLS host name is
    /// known, and made anew for the TLS connection inside a tunnel.
    var session: ConnectionSession {
        if let madeSession { return madeSession }
        let made = ConnectionSession(serverName: tls?.serverName, loop: context.index)
        madeSession = made
        return made
    }
    private var madeSession: ConnectionSession?

    var isSecure: Bool { tls != nil }
    /// Closed for the protocol: nothing more is sent or received, even while lingering.
    var isClosed: Bool {
        switch phase {
        case .closed, .lingering: true
        default: false
        }
    }
    var pendingOutput: Int { output.count }

    // MARK: events

    func handleEvent(readable: Bool, writable: Bool, hangup: Bool) {
        if case .lingering = phase {
            if writable && wantsWritable { endWriting() }
            if readable { discardInput() } else if hangup { close() }
            return
        }
        if writable { flush() }
        if readable && !readPaused { readAvailable() }
        if hangup && !isClosed && !readable { close() }
    }

    /// Reads until the socket would block, the peer stops, or output back-pressure pauses reading.
    func readAvailable() {
        while !readPaused {
            switch phase {
            case .closed, .lingering:
                return
            case .sniffing:
                guard sniffTLS() else { return }
            case .handshaking(let session):
                guard continueHandshake(session) else { return }
            case .detecting, .active:
                let count: Int
                switch transportRead() {
                case .bytes(let n): count = n
                case .wouldBlock: return
                case .closed:
                    endOfInput()
                    return
                }
                lastActivity = MonotonicClock.now()
                let bytes = UnsafeRawBufferPointer(rebasing: context.readBuffer[..<count])
                if case .active(let proto) = phase {
                    proto.receive(bytes)
                } else {
                    detect(bytes)
                }
                flush()
                // A short plain read drained the socket: skip the read that would only say EAGAIN
                // (epoll is level-triggered and reports anything that arrives later). TLS may
                // still hold decrypted bytes, so it reads on.
                if tls == nil && count < context.readBuffer.count { return }
            }
        }
    }

    private enum ReadOutcome { case bytes(Int), wouldBlock, closed }

    private func transportRead() -> ReadOutcome {
        if let tls {
            switch tls.read(into: context.readBuffer) {
            case .done(let n): return .bytes(n)
            case .wantRead: return .wouldBlock
            case .wantWrite:
                setWritable(true)
                return .wouldBlock
            case .closed, .failed: return .closed
            }
        }
        do {
            switch try Socket.read(fd, into: context.readBuffer) {
            case .done(0): return .closed
            case .done(let n): return .bytes(n)
            case .wouldBlock: return .wouldBlock
            }
        } catch {
            return .closed
        }
    }

    /// Peeks at the first byte: 0x16 starts a TLS handshake record.
    private func sniffTLS() -> Bool {
        var first: UInt8 = 0
        let result = withUnsafeMutableBytes(of: &first) { try? Socket.peek(fd, into: $0) }
        switch result {
        case .done(1)?:
            if first == 0x16, let tlsContext = context.configuration.tls, let session = try? TLSSession(context: tlsContext, fd: fd) {
                tls = session
                phase = .handshaking(session)
            } else {
                phase = .detecting
            }
            return true
        case .wouldBlock?:
            return false
        default:
            close()
            return false
        }
    }

    private func continueHandshake(_ session: TLSSession) -> Bool {
        switch session.handshake() {
        case .done:
            lastActivity = MonotonicClock.now()
            switch session.negotiatedProtocol {
            case "h2": activate(HTTP2Handler(connection: self))
            case "http/1.1": activate(HTTP1Handler(connection: self))
            default: phase = .detecting
            }
            return true
        case .wantRead:
            setWritable(false)
            return false
        case .wantWrite:
            setWritable(true)
            return false
        case .closed, .failed:
            close()
            return false
        }
    }

    /// Chooses HTTP/2 when the bytes are the connection preface, HTTP/1.1 as soon as they cannot be.
    private func detect(_ bytes: UnsafeRawBufferPointer) {
        detectionBuffer += bytes
        let compared = min(detectionBuffer.count, Self.preface.count)
        let matches = detectionBuffer[..<compared].elementsEqual(Self.preface[..<compared])
        if matches && compared < Self.preface.count { return }
        let buffered = detectionBuffer
        detectionBuffer = []
        activate(matches ? HTTP2Handler(connection: self) : HTTP1Handler(connection: self))
        if case .active(let proto) = phase {
            buffered.withUnsafeBytes { proto.receive($0) }
        }
    }

    private func activate(_ proto: ConnectionProtocol) {
        phase = .active(proto)
        proto.fillOutput()
        flush()
    }

    /// Turns an HTTP/1.1 connection whose `CONNECT` was answered `200` into a new TLS
    /// connection of this server, as if just accepted (HTTPS-proxy interception). The answer must
    /// reach the socket before TLS starts; a client that sent bytes before reading it (none does)
    /// or a socket that would not take the answer at once is closed instead.
    func openTunnel(pendingInput: Int) {
        flush()
        guard pendingInput == 0, pendingOutput == 0, !isClosed, tls == nil, let tlsContext = context.configuration.tls,
              let session = try? TLSSession(context: tlsContext, fd: fd)
        else { return close() }
        tls = session
        madeSession = nil
        acceptedAt = MonotonicClock.now()
        phase = .handshaking(session)
    }

    /// Swaps the protocol (HTTP/1.1 → HTTP/2 after `Upgrade: h2c`).
    func switchProtocol(to proto: ConnectionProtocol) {
        phase = .active(proto)
    }

    private func endOfInput() {
        if case .active(let proto) = phase { proto.peerClosed() }
        closesWithoutLingering = true
        closeWhenFlushed = true
        readPaused = true
        flush()
    }

    // MARK: output

    /// Queues bytes for the peer (sent by the next `flush`).
    func send(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        var output = moveOut(&self.output, leaving: OutputBuffer())
        output.append(bytes)
        self.output = output
        queuedTotal &+= UInt64(bytes.count)
    }

    /// Queues bytes for the peer.
    func send(_ bytes: [UInt8]) {
        guard !isClosed else { return }
        var output = moveOut(&self.output, leaving: OutputBuffer())
        output.append(bytes)
        self.output = output
        queuedTotal &+= UInt64(bytes.count)
    }

    /// Calls `callback` with true once everything queued so far has been handed to the socket,
    /// or with false if the connection closes first.
    func whenSent(_ callback: @escaping SentCallback) {
        guard !isClosed else { return callback(false) }
        if sentTotal == queuedTotal { return callback(true) }
        var callbacks = moveOut(&sentCallbacks, leaving: SentCallbacks())
        callbacks.append(end: queuedTotal, callback)
        sentCallbacks = callbacks
    }

    /// Closes the connection once everything queued has been sent.
    func closeAfterFlush() {
        closeWhenFlushed = true
        readPaused = true
    }

    /// Writes what the socket takes; tops up HTTP/2 output; manages write interest and back-pressure.
    func flush() {
        guard !isClosed, !flushing else { return }
        if case .handshaking(let session) = phase {
            _ = continueHandshake(session)
            return
        }
        flushing = true
        defer { flushing = false }
        while true {
            if pendingOutput < Self.outputHighWater, case .active(let proto) = phase {
                proto.fillOutput()
                if isClosed { return }
            }
            if pendingOutput == 0 { break }
            let written = output.withUnreadBytes { transportWrite($0) }
            guard let written else {
                close()
                return
            }
            if written == 0 { break }
            lastActivity = MonotonicClock.now()
            var output = moveOut(&self.output, leaving: OutputBuffer())
            output.consume(written)
            self.output = output
            sentTotal &+= UInt64(written)
            if !sentCallbacks.isEmpty {
                var callbacks = moveOut(&sentCallbacks, leaving: SentCallbacks())
                let reached = callbacks.takeReached(sentTotal)
                sentCallbacks = callbacks
                for callback in reached { callback(true) }
            }
        }
        if pendingOutput > Self.largeOutput { heldLargeOutput = true }
        setWritable(pendingOutput > 0)
        if pendingOutput == 0 && closeWhenFlushed {
            if closesWithoutLingering { close() } else { linger() }
            return
        }
        let shouldPause = pendingOutput >= Self.outputHighWater || closeWhenFlushed
        if shouldPause != readPaused {
            readPaused = shouldPause
            context.loop.setInterest(fd, readable: !readPaused, writable: wantsWritable)
            if !readPaused { readAvailable() }
        }
    }

    /// Bytes the transport took (0 when it would block), or nil on failure.
    private func transportWrite(_ bytes: UnsafeRawBufferPointer) -> Int? {
        if let tls {
            switch tls.write(from: bytes) {
            case .done(let n): return n
            case .wantWrite, .wantRead: return 0
            case .closed, .failed: return nil
            }
        }
        do {
            switch try Socket.write(fd, from: bytes) {
            case .done(let n): return n
            case .wouldBlock: return 0
            }
        } catch {
            return nil
        }
    }

    private func setWritable(_ writable: Bool) {
        guard writable != wantsWritable else { return }
        wantsWritable = writable
        context.loop.setInterest(fd, readable: !readPaused, writable: writable)
    }

    // MARK: lifetime

    func checkDeadline(now: UInt64) {
        let configuration = context.configuration
        let headerLimit = MonotonicClock.nanoseconds(seconds: configuration.headerTimeoutSeconds)
        let bodyLimit = MonotonicClock.nanoseconds(seconds: configuration.bodyTimeoutSeconds)
        let idleLimit = MonotonicClock.nanoseconds(seconds: configuration.idleTimeoutSeconds)
        switch phase {
        case .closed:
            return
        case .lingering(let since):
            if now &- since > Self.lingerTotal || now &- lastActivity > Self.lingerQuiet { close() }
        case .sniffing, .handshaking, .detecting:
            if now &- acceptedAt > headerLimit { close() }
        case .active(let proto):
            if proto.expireSlowRequests(now: now, headerLimit: headerLimit, bodyLimit: bodyLimit) {
                flush()
            } else if now &- lastActivity > idleLimit && !proto.isStreaming {
                proto.timedOut()
                flush()
            }
        }
    }

    func beginShutdown() {
        closesWithoutLingering = true
        switch phase {
        case .active(let proto):
            proto.beginShutdown()
            flush()
        case .closed:
            return
        default:
            close()
        }
    }

    func forceClose() {
        close()
    }

    /// Closes the socket now and tells the protocol (streams learn the client is gone).
    func close() {
        close(resetting: false)
    }

    /// Aborts the connection now: the peer sees a TCP reset, and nothing queued is sent (a
    /// response's `ConnectionAction.reset`). Must not be called from inside nghttp2's callbacks.
    func reset() {
        close(resetting: true)
    }

    /// Closes gracefully while the peer may still be sending (a request body past a 413, say):
    /// the answer is all written, so the write side ends with FIN (after TLS's close_notify),
    /// and input is read and dropped until the peer closes or `checkDeadline` gives up. Closing
    /// with unread input instead makes the kernel send a reset, and the peer's kernel then
    /// drops the answer it has not read yet.
    private func linger() {
        let previous = phase
        lastActivity = MonotonicClock.now()
        phase = .lingering(since: lastActivity)
        if case .active(let proto) = previous { proto.connectionClosed() }
        if case .closed = phase { return }
        if heldLargeOutput {
            heldLargeOutput = false
            FreeMemory.releaseAfterLargeFree()
        }
        readPaused = false
        endWriting()
        discardInput()
    }

    /// Sends close_notify (TLS) and then FIN; while the socket has no room for close_notify,
    /// waits until it is writable (the lingering limits still apply).
    private func endWriting() {
        let closeNotifySent = tls?.shutdown() ?? true
        if closeNotifySent { Socket.shutdownWrite(fd) }
        wantsWritable = !closeNotifySent
        context.loop.setInterest(fd, readable: true, writable: wantsWritable)
    }

    /// Reads and drops what a lingering peer sends; closes at its end or on an error.
    private func discardInput() {
        while true {
            switch try? Socket.read(fd, into: context.readBuffer) {
            case .done(let count)? where count > 0:
                lastActivity = MonotonicClock.now()
            case .wouldBlock?:
                return
            default:
                return close()
            }
        }
    }

    private func close(resetting: Bool) {
        if case .closed = phase { return }
        let previous = phase
        let lingered = if case .lingering = previous { true } else { false }
        phase = .closed
        // What never reached the socket is settled before the streams hear the client left, so
        // that whoever watches a stream's end finds its unsent writes settled already.
        output = OutputBuffer()
        var callbacks = moveOut(&sentCallbacks, leaving: SentCallbacks())
        for callback in callbacks.takeAll() { callback(false) }
        if case .active(let proto) = previous { proto.connectionClosed() }
        context.loop.unregister(fd)
        if resetting {
            Socket.abort(fd)
        } else {
            if !lingered { tls?.shutdown() }
            Socket.close(fd)
        }
        if heldLargeOutput { FreeMemory.releaseAfterLargeFree() }
    }
}
