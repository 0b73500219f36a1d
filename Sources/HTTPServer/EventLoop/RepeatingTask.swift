#if canImport(Glibc)
import Glibc
#endif

/// Runs a task every so often on a thread of its own, for the rest of the process: work that is
/// due as time passes with no request to start it (the release of delayed messages, docs/quotas.md).
public final class RepeatingTask: Sendable {
    private let intervalMilliseconds: Int
    private let task: @Sendable () -> Void

    private init(intervalMilliseconds: Int, task: @escaping @Sendable () -> Void) {
        self.intervalMilliseconds = intervalMilliseconds
        self.task = task
    }

    /// Starts running `task` every `intervalMilliseconds` (the first run one interval from now).
    public static func start(everyMilliseconds intervalMilliseconds: Int, _ task: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(RepeatingTask(intervalMilliseconds: intervalMilliseconds, task: task))
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let repeating = Unmanaged<RepeatingTask>.fromOpaque(raw!).takeRetainedValue()
            repeating.run()
            return nil
        }, box.toOpaque())
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }

    private func run() {
        while true {
            // Woken early by a signal, it runs early: the task only looks for what is due.
            var time = timespec(tv_sec: intervalMilliseconds / 1_000, tv_nsec: (intervalMilliseconds % 1_000) * 1_000_000)
            _ = nanosleep(&time, nil)
            task()
        }
    }
}
