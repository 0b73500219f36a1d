import Locking

/// One open stream's mailbox. Events are posted in order while its device's shard is locked and
/// handed to the listener after it is released, so a listener may call back into the core.
/// Only one thread hands events over at a time, which keeps them in posting order. Each event
/// comes with a receipt the listener settles once its stream has sent it or failed to.
final class StreamSubscriber: Sendable {
    private struct Mailbox {
        var events: [(DeviceEvent, HandOver)] = []
        var draining = false
        var closed = false
    }

    let id: Int
    private let listener: @Sendable (DeviceEvent, StreamReceipt) -> Void
    private let report: @Sendable (HandOver, Bool) -> Void
    private let mailbox = Locked(Mailbox())

    init(
        id: Int, listener: @escaping @Sendable (DeviceEvent, StreamReceipt) -> Void,
        report: @escaping @Sendable (HandOver, Bool) -> Void
    ) {
        self.id = id
        self.listener = listener
        self.report = report
    }

    /// Queues events; call `drain()` once no other lock is held. The core posts only to
    /// subscribers it holds, and detaches one before it is closed.
    func post(_ events: [(DeviceEvent, HandOver)]) {
        mailbox.withLock { mailbox in
            assert(!mailbox.closed, "a closed subscriber is detached first")
            mailbox.events += events
        }
    }

    /// Hands queued events to the listener, unless another thread is doing so already
    /// (that thread then picks these up too).
    func drain() {
        var owner = false
        while true {
            let batch: [(DeviceEvent, HandOver)] = mailbox.withLock { mailbox in
                if !owner {
                    guard !mailbox.draining else { return [] }
                    mailbox.draining = true
                    owner = true
                }
                let batch = mailbox.closed ? [] : mailbox.events
                mailbox.events.removeAll()
                if batch.isEmpty { mailbox.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            for (event, handOver) in batch { listener(event, StreamReceipt(handOver: handOver, report: report)) }
        }
    }

    /// Stops all further hand-overs; queued events are settled as not sent. Call it outside the
    /// project's locks.
    func close() {
        let discarded = mailbox.withLock { mailbox in
            mailbox.closed = true
            defer { mailbox.events.removeAll() }
            return mailbox.events
        }
        for (_, handOver) in discarded { report(handOver, false) }
    }
}
