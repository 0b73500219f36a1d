import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for work that blocks (a webhook's requests, a test's client): it runs its
/// body once, sleeps until woken or a time passes (`sleep`), and is stopped and joined by its owner.
///
/// `@unchecked Sendable`: the semaphore is made in init and freed in deinit, after the thread has
/// been joined; `sem_post` and `sem_timedwait` may be called from any thread.
public final class BackgroundThread: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>
    private let stopped = Atomic<Bool>(false)
    private let thread = Atomic<UInt>(0)

    private init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Starts a thread that runs `body` with this thread's handle (to `sleep` and see `isStopped`).
    public static func start(_ body: @escaping @Sendable (BackgroundThread) -> Void) -> BackgroundThread {
        let thread = BackgroundThread()
        let handle = spawn { body(thread) }
        thread.thread.store(UInt(handle), ordering: .releasing)
        return thread
    }

    /// Runs `body` on a new thread that nobody joins: a one-off blocking call off the caller's
    /// thread (a Swift task's, which must not block).
    public static func detach(_ body: @escaping @Sendable () -> Void) {
        pthread_detach(spawn(body))
    }

    private static func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var handle = pthread_t()
        let created = pthread_create(&handle, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, Unmanaged.passRetained(Box(body)).toOpaque())
        precondition(created == 0, "pthread_create failed: \(created)")
        return handle
    }

    /// Whether `stop` was called: the body returns when it sees this.
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Wakes the thread from `sleep` (or makes its next `sleep` return at once).
    public func wake() {
        sem_post(semaphore)
    }

    /// Sleeps until woken or `milliseconds` pass; true when woken. Called on the thread itself.
    @discardableResult
    public func sleep(milliseconds: Int) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + (milliseconds % 1000) * 1_000_000
        deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while true {
            if sem_timedwait(semaphore, &deadline) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Asks the body to return and wakes it; `waiting`: waits for the thread to end (a call on
    /// the thread itself only asks), else lets it end on its own, in the middle of a request
    /// that may take seconds.
    public func stop(waiting: Bool = true) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        let handle = thread.load(ordering: .acquiring)
        guard handle != 0, pthread_equal(pthread_t(handle), pthread_self()) == 0 else { return }
        if waiting { pthread_join(pthread_t(handle), nil) } else { pthread_detach(pthread_t(handle)) }
    }
}
