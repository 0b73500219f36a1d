import HTTPServer
import Locking
import Synchronization

/// The waiting reads of the message log (`GET .../messages?waitSeconds=`, docs/fcm.md, "Waiting
/// for a message"): each holds a deferred answer until a read of its filters finds something, or
/// its wait ends. Nothing polls: an event of the read's project (`EventFeed.publish`) asks each of
/// its waiters to read again, once, on the waiter's own loop; many events at once ask once.
///
/// Bounded in all by `maximumWaiters` (per connection, HTTP/2's concurrent-stream limit and
/// HTTP/1.1's one request at a time bound them already). A client that leaves takes its waiter
/// with it at once (`DeferredResponse.onCancel`).
final class LogWaiters: Sendable {
    /// How many waiting reads may be held at once.
    static let maximumWaiters = 10_000

    private final class Waiter: Sendable {
        let project: String
        let answer: DeferredResponse
        /// The read again: its answer, or nil while it finds nothing.
        let read: @Sendable () -> HTTPResponse?
        /// Whether a read again is queued on the waiter's loop (events coming meanwhile add none).
        let readQueued = Atomic<Bool>(false)

        init(project: String, answer: DeferredResponse, read: @escaping @Sendable () -> HTTPResponse?) {
            self.project = project
            self.answer = answer
            self.read = read
        }
    }

    private let waiters = Locked<[ObjectIdentifier: Waiter]>([:])
    private let waiterCount = Atomic<Int>(0)

    /// Whether any read waits: the routes then publish their events, which wake it.
    var isWaiting: Bool { waiterCount.load(ordering: .relaxed) > 0 }

    /// How many reads wait now (`/metrics`).
    var count: Int { waiterCount.load(ordering: .relaxed) }

    /// Holds `answer` until `read` finds something after an event of `project`, or until
    /// `waitMilliseconds` pass, when `finalRead` answers (with what it finds, empty included).
    /// False when `maximumWaiters` wait already (the caller answers at once).
    func wait(
        project: String, answer: DeferredResponse, waitMilliseconds: Int,
        read: @escaping @Sendable () -> HTTPResponse?, finalRead: @escaping @Sendable () -> HTTPResponse
    ) -> Bool {
        let waiter = Waiter(project: project, answer: answer, read: read)
        let key = ObjectIdentifier(waiter)
        let added = waiters.withLock { waiters -> Bool in
            if waiters.count >= Self.maximumWaiters {
                // Room is made from the answers nobody waits for any more.
                for (key, waiter) in waiters where waiter.answer.isFinished { waiters[key] = nil }
            }
            guard waiters.count < Self.maximumWaiters else { return false }
            waiters[key] = waiter
            waiterCount.store(waiters.count, ordering: .relaxed)
            return true
        }
        guard added else { return false }
        answer.onCancel { [self] in _ = remove(key) }
        answer.loop.schedule(afterMilliseconds: waitMilliseconds) { [self] in
            guard remove(key) else { return }
            if !answer.isFinished { answer.respond(finalRead()) }
        }
        // A read again at once: a send between the caller's first read and the waiter's start
        // woke nobody.
        wake(key, waiter)
        return true
    }

    /// Asks every read waiting on `project` (nil: every project's) to read again.
    func wake(project: String?) {
        let woken = waiters.withLock { waiters in
            waiters.filter { project == nil || $0.value.project == project }
        }
        for (key, waiter) in woken { wake(key, waiter) }
    }

    /// Queues one read again of `waiter` on its loop, unless one is queued already.
    private func wake(_ key: ObjectIdentifier, _ waiter: Waiter) {
        guard !waiter.readQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        waiter.answer.loop.execute { [self] in
            waiter.readQueued.store(false, ordering: .releasing)
            if waiter.answer.isFinished {
                _ = remove(key)
                return
            }
            guard let response = waiter.read(), remove(key) else { return }
            waiter.answer.respond(response)
        }
    }

    /// Removes a waiter; false when it was gone already (answered by the other path).
    private func remove(_ key: ObjectIdentifier) -> Bool {
        waiters.withLock { waiters in
            guard waiters.removeValue(forKey: key) != nil else { return false }
            waiterCount.store(waiters.count, ordering: .relaxed)
            return true
        }
    }
}
