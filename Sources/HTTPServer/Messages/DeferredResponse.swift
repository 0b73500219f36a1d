import Locking

/// An answer that comes later (`HTTPResponse.deferred`): the handler returns at once, so the
/// loop goes on serving other requests, and the answer is given through `respond` — once, from
/// any thread (typically from a task the handler scheduled on `loop`).
///
/// If the client leaves first, the connection cancels it: `respond` then does nothing, and what
/// the connection held for the answer is released at once (not when `respond` comes).
public final class DeferredResponse: Sendable {
    /// The loop of the connection that waits for the answer; schedule timers on it.
    public let loop: EventLoop
    /// Where the answer goes, on the loop; nil once answered or cancelled.
    private let delivery: Locked<LoopBound<(HTTPResponse) -> Void>?>
    /// The response this one passes its answer on to (see `observed`): its client leaving
    /// finishes this one too.
    private let next: DeferredResponse?
    /// What `onCancel` asked to run if the client leaves first, and whether it has left.
    private let cancellation = Locked<(handler: (@Sendable () -> Void)?, cancelled: Bool)>((nil, false))

    init(loop: EventLoop, next: DeferredResponse? = nil, deliver: @escaping (HTTPResponse) -> Void) {
        self.loop = loop
        self.next = next
        delivery = Locked(LoopBound(deliver, loop: loop))
    }

    /// True once the client has left (or the answer was given): a late answer will be dropped,
    /// so work done only for the answer can be skipped.
    public var isFinished: Bool { delivery.withLock { $0 == nil } || next?.isFinished == true }

    /// Runs `body` if the client leaves before the answer is given (at once if it has left
    /// already), so that what waits for the answer can let go. One handler: a second replaces
    /// the first. Once `respond` is called it no longer runs.
    public func onCancel(_ body: @escaping @Sendable () -> Void) {
        // The connection cancels the response it made, the last of the chain `observed` builds.
        if let next { return next.onCancel(body) }
        let runNow = cancellation.withLock { cancellation -> Bool in
            if cancellation.cancelled { return true }
            cancellation.handler = body
            return false
        }
        if runNow { body() }
    }

    /// Gives the answer. Only the first call counts; after the client left, none does.
    public func respond(_ response: HTTPResponse) {
        // The handler sits on the last of the chain (`onCancel`).
        var link: DeferredResponse? = self
        while let current = link {
            current.cancellation.withLock { $0.handler = nil }
            link = current.next
        }
        guard let delivery = takeDelivery() else { return }
        // Always through the queue, even on the loop: the connection may be in the middle of
        // answering another request when this is called.
        loop.execute { delivery.value(response) }
    }

    /// The client left or the connection closed: the answer is no longer wanted.
    func cancel() {
        guard takeDelivery() != nil else { return }
        let handler = cancellation.withLock { cancellation in
            cancellation.cancelled = true
            defer { cancellation.handler = nil }
            return cancellation.handler
        }
        handler?()
    }

    /// A response whose answer passes through `observe` (on the loop) before reaching this one:
    /// for the access log, which learns the status only then.
    func observed(by observe: @escaping (HTTPResponse) -> Void) -> DeferredResponse {
        DeferredResponse(loop: loop, next: self) { [self] response in
            observe(response)
            takeDelivery()?.value(response)
        }
    }

    private func takeDelivery() -> LoopBound<(HTTPResponse) -> Void>? {
        delivery.withLock { delivery in
            defer { delivery = nil }
            return delivery
        }
    }
}
