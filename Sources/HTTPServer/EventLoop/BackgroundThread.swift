import CShims
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for work that blocks (a webhook's requests, a test's client): it runs its
/// body once, sleeps until woken or a time passes (`sleep`), and is stopped and joined by its owner.
///
/// Joined means ended for good: the libraries' per-thread state (OpenSSL's random generators) is
/// freed by the thread's own exit, which a process that exits while the thread still ends would
/// leave half done.
///
/// Its waits run against `CLOCK_REALTIME` (`sem_timedwait`, `pthread_timedjoin_np`), which the
/// sanitizers see, unlike their `CLOCK_MONOTONIC` variants: a change of the system's time can
/// stretch or cut short a wait.
///
/// `@unchecked Sendable`: the semaphore is made in init and freed in deinit, after the thread has
/// been joined or has ended; `sem_post` and `sem_timedwait` may be called from any thread.
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
        var deadline = Self.deadline(afterMilliseconds: milliseconds)
        return waitForWake(until: &deadline)
    }

    /// Sleeps the whole of `milliseconds` unless stopped, whatever else wakes it: a pause
    /// between tries, which a wake left from an earlier sleep must not cut short. Called on the
    /// thread itself.
    public func pause(milliseconds: Int) {
        var deadline = Self.deadline(afterMilliseconds: milliseconds)
        while waitForWake(until: &deadline), !isStopped {}
    }

    private func waitForWake(until deadline: inout timespec) -> Bool {
        while true {
            if sem_timedwait(semaphore, &deadline) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// Asks the body to return, wakes it and waits for the thread to end (a call on the thread
    /// itself only asks).
    public func stop() {
        Self.stop([self], waitingAtMostMilliseconds: nil)
    }

    /// Asks each thread's body to return and wakes it, then waits for them to end, all against
    /// one deadline `milliseconds` from now (nil: for as long as they take). A thread still
    /// running then, in the middle of a request that may take seconds, is left to end on its own.
    /// Returns how many were left so. A call on one of the threads itself only asks that one.
    @discardableResult
    public static func stop(_ threads: [BackgroundThread], waitingAtMostMilliseconds milliseconds: Int?) -> Int {
        let asked = threads.filter { !$0.stopped.exchange(true, ordering: .acquiringAndReleasing) }
        for thread in asked { thread.wake() }
        var deadline = Self.deadline(afterMilliseconds: milliseconds ?? 0)
        var left = 0
        for thread in asked {
            let handle = thread.thread.load(ordering: .acquiring)
            guard handle != 0, pthread_equal(pthread_t(handle), pthread_self()) == 0 else { continue }
            if milliseconds == nil {
                pthread_join(pthread_t(handle), nil)
            } else if CShims_pthread_timedjoin(pthread_t(handle), &deadline) != 0 {
                pthread_detach(pthread_t(handle))
                left += 1
            }
        }
        return left
    }

    /// The `CLOCK_REALTIME` instant `milliseconds` from now.
    private static func deadline(afterMilliseconds milliseconds: Int) -> timespec {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let milliseconds = max(0, milliseconds)
        let nanoseconds = Int(deadline.tv_nsec) + (milliseconds % 1000) * 1_000_000
        deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return deadline
    }
}
