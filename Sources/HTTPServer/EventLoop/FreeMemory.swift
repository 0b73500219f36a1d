import CShims
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Hands memory the process has freed back to the system, so that its size falls again after a
/// peak: a reset of a large state, or a connection that held megabytes of unsent output. The
/// allocator otherwise keeps freed pages for reuse.
public enum FreeMemory {
    /// How long after the last call of `releaseSoon()` the release runs (docs/performance.md,
    /// "Memory per queued message").
    public static let releaseDelayMilliseconds = 2_000
    private static let lastRelease = Atomic<UInt64>(0)
    /// When the release asked for by `releaseSoon()` is due, on the monotonic clock; 0 when none is.
    private static let releaseDue = Atomic<UInt64>(0)
    /// Whether the thread that waits for `releaseDue` runs.
    private static let waiterRuns = Atomic<Bool>(false)

    /// Releases now (it walks the allocator's free lists: call it after large frees only).
    public static func release() {
        lastRelease.store(MonotonicClock.now(), ordering: .relaxed)
        CShims_release_free_memory()
    }

    /// Releases `releaseDelayMilliseconds` after the last call, on a thread of its own. For the
    /// frees of a reset: a test suite resets and fills the emulator again many times a second, and
    /// pages handed back at once would have to be mapped and zeroed again by the next test's
    /// sends (about an eighth of a send's time when measured); handed back once the resets stop,
    /// they are reused meanwhile.
    public static func releaseSoon() {
        let due = MonotonicClock.deadline(after: MonotonicClock.nanoseconds(milliseconds: releaseDelayMilliseconds))
        releaseDue.store(due, ordering: .relaxed)
        startWaiter()
    }

    /// Starts the waiting thread unless it runs.
    private static func startWaiter() {
        guard !waiterRuns.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { _ in
            FreeMemory.waitAndRelease()
            return nil
        }, nil)
        guard created == 0 else {
            // No thread to wait: release now rather than never.
            waiterRuns.store(false, ordering: .releasing)
            release()
            return
        }
        pthread_detach(thread)
    }

    /// Sleeps until the due time, which later calls may move on, then releases and ends; starts
    /// over when a call came while it finished.
    private static func waitAndRelease() {
        while true {
            let due = releaseDue.load(ordering: .relaxed)
            let now = MonotonicClock.now()
            if due == 0 { break }
            if now < due {
                let wait = due - now
                // Woken early by a signal, the loop looks again and sleeps the rest.
                var time = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
                _ = nanosleep(&time, nil)
                continue
            }
            // Unless a call moved the due time meanwhile: then wait for that one.
            if releaseDue.compareExchange(expected: due, desired: 0, ordering: .relaxed).exchanged { release() }
        }
        waiterRuns.store(false, ordering: .releasing)
        // A call between the last look and the line above found the waiter running and started none.
        if releaseDue.load(ordering: .relaxed) != 0 { startWaiter() }
    }

    /// Releases now unless a release ran within the last second, for frees that may come in
    /// bursts; then `releaseSoon()`, so that what the burst freed is handed back once it ends.
    static func releaseAfterLargeFree() {
        let now = MonotonicClock.now()
        let last = lastRelease.load(ordering: .relaxed)
        guard last == 0 || now &- last >= 1_000_000_000,
              lastRelease.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
        else { return releaseSoon() }
        CShims_release_free_memory()
    }
}
