#if TSAN_VISIBLE_LOCKS
import Glibc
#else
import Synchronization
#endif

#if TSAN_VISIBLE_LOCKS
/// A value behind a lock, as the standard library's `Mutex`: this build is for ThreadSanitizer,
/// which does not see the futex under `Mutex` on Linux and would report every access two threads
/// make to a guarded value as a race, so a pthread mutex (which it intercepts) guards it here.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// Guards `value`.
    public init(_ value: consuming sending Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#else
/// A value behind a lock: the standard library's `Mutex`. ThreadSanitizer builds use a pthread
/// mutex instead (see the other branch of this file); `make sanitize` sets that up.
public typealias Locked<Value: ~Copyable> = Mutex<Value>
#endif
