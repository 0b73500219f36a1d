/// Runs a task every so often on a thread of its own until stopped: work that is due as time
/// passes with no request to start it (the release of delayed messages, docs/quotas.md). Stopped
/// and joined at shutdown, so that what the task holds is released with the rest.
public final class RepeatingTask: Sendable {
    private let thread: BackgroundThread

    private init(thread: BackgroundThread) {
        self.thread = thread
    }

    /// Starts running `task` every `intervalMilliseconds` (the first run one interval from now).
    public static func start(everyMilliseconds intervalMilliseconds: Int, _ task: @escaping @Sendable () -> Void) -> RepeatingTask {
        RepeatingTask(thread: BackgroundThread.start { thread in
            // Woken only by `stop`.
            while !thread.sleep(milliseconds: intervalMilliseconds), !thread.isStopped { task() }
        })
    }

    /// Stops the task (a run under way finishes first) and waits for its thread to end.
    public func stop() {
        thread.stop()
    }
}
