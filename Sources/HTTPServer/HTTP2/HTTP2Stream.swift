/// One HTTP/2 request/response exchange on an `HTTP2Handler`.
final class HTTP2Stream: ResponseStreamSink {
    let id: Int32
    /// Strong on purpose (a weak reference would move the handler's reference counts to a slow
    /// side table); cleared when the stream or the connection closes, which breaks the cycle.
    var handler: HTTP2Handler?
    /// Where the handler's list of open streams holds this one; nil once closed.
    var slot: Int?
    let startedAt = MonotonicClock.now()

    var method = ""
    var path = ""
    var query = ""
    var authority: String?
    var headers = HTTPHeaders()
    var headerBytes = 0
    var body: [UInt8] = []
    /// Set when the request broke a limit; the status to answer with instead of dispatching.
    var rejection: Int?
    var dispatched = false

    /// Response body bytes not yet handed to nghttp2.
    var pending = OutputBuffer()
    /// True when the whole response body is in `pending` (no more will come).
    var bodyComplete = true
    /// The streaming body, while one is open.
    var responseStream: ResponseStream?
    /// The answer being waited for, while the handler defers it.
    var deferred: DeferredResponse?
    /// Body bytes ever queued in `pending`, and ever copied into DATA frames.
    var queuedTotal: UInt64 = 0
    var framedTotal: UInt64 = 0
    /// Callbacks waiting for their bytes to be framed (then they wait on the connection).
    var sentCallbacks = SentCallbacks()
    /// True once a streaming response wrote into `pending`: its bytes count toward the
    /// connection's `streamedBytes`.
    var isStreamed = false
    /// The response's header block as nghttp2 reads it when it sends the HEADERS frame.
    var headBytes = HTTP2HeadBytes()

    init(id: Int32, handler: HTTP2Handler) {
        self.id = id
        self.handler = handler
    }

    /// Moves the request's fields out for dispatch, leaving them empty: nothing reads them on the
    /// stream again, and moving them spares a retain here and a release when the stream goes.
    func takeRequest() -> (method: String, path: String, query: String, authority: String?, headers: HTTPHeaders, body: [UInt8]) {
        var taken = (method: "", path: "", query: "", authority: String?.none, headers: HTTPHeaders(), body: [UInt8]())
        swap(&taken.method, &method)
        swap(&taken.path, &path)
        swap(&taken.query, &query)
        swap(&taken.authority, &authority)
        swap(&taken.headers, &headers)
        swap(&taken.body, &body)
        return taken
    }

    var pendingCount: Int { pending.count }

    /// Queues response body bytes. (`pending` and `sentCallbacks` are changed as locals moved out
    /// of the stream, `moveOut(_:leaving:)`.)
    func appendPending(_ bytes: [UInt8]) {
        var pending = moveOut(&self.pending, leaving: OutputBuffer())
        pending.append(bytes)
        self.pending = pending
    }

    /// Copies the first `buffer.count` pending bytes into `buffer` (a DATA frame's) and drops them.
    func framePending(into buffer: UnsafeMutableRawBufferPointer) {
        var pending = moveOut(&self.pending, leaving: OutputBuffer())
        pending.withUnreadBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<buffer.count]))
        }
        pending.consume(buffer.count)
        self.pending = pending
        framedTotal &+= UInt64(buffer.count)
    }

    /// The callbacks whose bytes are all framed now, if any.
    func takeFramedCallbacks() -> [SentCallback]? {
        guard !sentCallbacks.isEmpty else { return nil }
        var callbacks = moveOut(&sentCallbacks, leaving: SentCallbacks())
        let reached = callbacks.takeReached(framedTotal)
        sentCallbacks = callbacks
        return reached
    }

    /// What this stream's whole answer holds in `LargeAnswerBudget` until it is framed or dropped.
    var heldAnswerBytes = 0

    /// Gives back what the answer held in `LargeAnswerBudget`.
    @inline(never)
    func releaseHeldAnswer() {
        LargeAnswerBudget.release(heldAnswerBytes)
        heldAnswerBytes = 0
    }

    func streamWrite(_ bytes: [UInt8], whenSent: SentCallback?, from stream: ResponseStream) {
        guard !bodyComplete, responseStream === stream, let handler else {
            whenSent?(false)
            return
        }
        appendPending(bytes)
        isStreamed = true
        queuedTotal &+= UInt64(bytes.count)
        if let whenSent {
            var callbacks = moveOut(&sentCallbacks, leaving: SentCallbacks())
            callbacks.append(end: queuedTotal, whenSent)
            sentCallbacks = callbacks
        }
        if !handler.streamed(bytes.count) {
            handler.reset(self)
            return
        }
        handler.resume(self)
    }

    /// Tells the callbacks of bytes never framed that they were not sent.
    func dropUnsent() {
        guard !sentCallbacks.isEmpty else { return }
        var callbacks = moveOut(&sentCallbacks, leaving: SentCallbacks())
        for callback in callbacks.takeAll() { callback(false) }
    }

    func streamFinish(from stream: ResponseStream) {
        guard !bodyComplete, responseStream === stream, let handler else { return }
        bodyComplete = true
        handler.resume(self)
    }
}
