import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs a task every so often on a thread of its own until stopped: work that is due as time
/// passes with no request to start it (the release of delayed messages, docs/quotas.md). Stopped
/// and joined at shutdown, so that what the task holds is released with the rest.
public final class RepeatingTask: Sendable {
    /// How often the thread looks whether it was stopped: a stop waits at most this long.
    private static let stepMilliseconds = 100

    private let intervalMilliseconds: Int
    private let task: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)
    /// The thread, once started (read by `stop`, on the thread that started it).
    private let thread = Atomic<UInt>(0)

    private init(intervalMilliseconds: Int, task: @escaping @Sendable () -> Void) {
        self.intervalMilliseconds = intervalMilliseconds
        self.task = task
    }

    /// Starts running `task` every `intervalMilliseconds` (the first run one interval from now).
    public static func start(everyMilliseconds intervalMilliseconds: Int, _ task: @escaping @Sendable () -> Void) -> RepeatingTask {
        let repeating = RepeatingTask(intervalMilliseconds: intervalMilliseconds, task: task)
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let repeating = Unmanaged<RepeatingTask>.fromOpaque(raw!).takeRetainedValue()
            repeating.run()
            return nil
        }, Unmanaged.passRetained(repeating).toOpaque())
        precondition(created == 0, "pthread_create failed: \(created)")
        repeating.thread.store(UInt(thread), ordering: .releasing)
        return repeating
    }

    /// Stops the task (a run under way finishes first) and waits for its thread to end.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = thread.load(ordering: .acquiring)
        if thread != 0 { pthread_join(pthread_t(thread), nil) }
    }

    private func run() {
        var waited = 0
        while !stopped.load(ordering: .acquiring) {
            var step = timespec(tv_sec: 0, tv_nsec: Self.stepMilliseconds * 1_000_000)
            _ = nanosleep(&step, nil)
            waited += Self.stepMilliseconds
            guard waited >= intervalMilliseconds, !stopped.load(ordering: .acquiring) else { continue }
            waited = 0
            task()
        }
    }
}
