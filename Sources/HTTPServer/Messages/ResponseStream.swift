import Locking

/// Where a `ResponseStream`'s bytes go: the HTTP/1.1 connection or the HTTP/2 stream that carries
/// it. Lives on the connection's loop.
/// Each call names the stream it comes from: a write or finish that reaches the loop after its
/// stream ended must not land in the next response the same connection streams.
protocol ResponseStreamSink: AnyObject {
    /// Queues bytes; `whenSent` learns whether they reached the socket.
    func streamWrite(_ bytes: [UInt8], whenSent: SentCallback?, from stream: ResponseStream)
    func streamFinish(from stream: ResponseStream)
}

/// The body of a streaming response (Server-Sent Events and the like). Writable from any thread:
/// each write hops to the connection's loop. When the client leaves, the stream closes and its
/// close handlers run (once).
public final class ResponseStream: Sendable {
    private struct State {
        var closed = false
        var closeHandlers: [@Sendable () -> Void] = []
    }

    private let sink: LoopBound<ResponseStreamSink>
    private let state = Locked(State())

    init(sink: ResponseStreamSink, loop: EventLoop) {
        self.sink = LoopBound(sink, loop: loop)
    }

    /// The event loop the stream's connection lives on.
    public var loop: EventLoop { sink.loop }

    /// True once the stream has finished or the client has gone.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Sends bytes. Returns false (and sends nothing) when the stream is already closed.
    /// `whenSent`, if given, is told once whether the bytes were handed to the socket: true only
    /// when they were, false when the stream or its connection closed first (on the loop, or at
    /// once when the stream is closed already).
    @discardableResult
    public func write(_ bytes: [UInt8], whenSent: SentCallback? = nil) -> Bool {
        guard !isClosed else {
            whenSent?(false)
            return false
        }
        let sink = self.sink
        sink.loop.execute { sink.value.streamWrite(bytes, whenSent: whenSent, from: self) }
        return true
    }

    /// Sends text as UTF-8.
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(Array(text.utf8))
    }

    /// Ends the body normally.
    public func finish() {
        guard markClosed() else { return }
        let sink = self.sink
        sink.loop.execute { sink.value.streamFinish(from: self) }
    }

    /// Runs `handler` once when the stream closes (at once if it already has).
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let closed = state.withLock { state -> Bool in
            if !state.closed { state.closeHandlers.append(handler) }
            return state.closed
        }
        if closed { handler() }
    }

    /// Runs a streaming body's writer for a HEAD request: it gets a stream that is closed
    /// already, so that it releases at once whatever it took for the body (its close handlers
    /// run), and nothing it writes is sent.
    static func startClosed(_ start: (ResponseStream) -> Void, sink: ResponseStreamSink, loop: EventLoop) {
        let stream = ResponseStream(sink: sink, loop: loop)
        stream.clientLeft()
        start(stream)
    }

    /// The connection saw the client leave (or the server is closing it).
    func clientLeft() {
        _ = markClosed()
    }

    /// Marks the stream closed and runs the close handlers; false when it already was.
    private func markClosed() -> Bool {
        let handlers = state.withLock { state -> [@Sendable () -> Void]? in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.closeHandlers = [] }
            return state.closeHandlers
        }
        guard let handlers else { return false }
        for handler in handlers { handler() }
        return true
    }
}
