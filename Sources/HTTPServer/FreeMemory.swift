import CShims
import Synchronization

/// Hands memory the process has freed back to the system, so that its size falls again after a
/// peak: a reset of a large state, or a connection that held megabytes of unsent output. The
/// allocator otherwise keeps freed pages for reuse.
public enum FreeMemory {
    private static let lastRelease = Atomic<UInt64>(0)

    /// Releases now (it walks the allocator's free lists: call it after large frees only).
    public static func release() {
        lastRelease.store(MonotonicClock.now(), ordering: .relaxed)
        CShims_release_free_memory()
    }

    /// Releases unless a release ran within the last second, for frees that may come in bursts.
    static func releaseAfterLargeFree() {
        let now = MonotonicClock.now()
        let last = lastRelease.load(ordering: .relaxed)
        guard last == 0 || now &- last >= 1_000_000_000,
              lastRelease.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
        else { return }
        CShims_release_free_memory()
    }
}
