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

    init(loop: EventLoop, next: DeferredResponse? = nil, deliver: @escaping (HTTPResponse) -> Void) {
        self.loop = loop
        self.next = next
        delivery = Locked(LoopBound(deliver, loop: loop))
    }

    /// True once the client has left (or the answer was given): a late answer will be dropped,
    /// so work done only for the answer can be skipped.
    public var isFinished: Bool { delivery.withLock { $0 == nil } || next?.isFinished == true }

    /// Gives the answer. Only the first call counts; after the client left, none does.
    public func respond(_ response: HTTPResponse) {
        guard let delivery = takeDelivery() else { return }
        // Always through the queue, even on the loop: the connection may be in the middle of
        // answering another request when this is called.
        loop.execute { delivery.value(response) }
    }

    /// The client left or the connection closed: the answer is no longer wanted.
    func cancel() {
        _ = takeDelivery()
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
