import Glibc

/// A value behind a lock: glibc's default pthread mutex.
///
/// Not the standard library's `Mutex`: on Linux that is a priority-inheritance futex, which
/// hands a contended lock straight to a sleeping waiter, so when the threads outnumber the
/// cores every contended acquisition waits for that waiter to be scheduled, and the other
/// threads queue behind it (a lock convoy: FCM sends at `--threads 8` on two cores fell to a
/// quarter of their `--threads 2` rate). glibc's mutex lets a running thread take a lock
/// that was just released. ThreadSanitizer intercepts it too, so every build uses this one
/// type (docs/ARCHITECTURE.md, "Concurrency: what is locked where").
///
/// The mutex and the value live in memory of their own (one allocation, the value after the
/// mutex), so that neither moves and the value is changed through a pointer, without the
/// run-time exclusivity check that a class's stored property would cost on every call.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    /// Where the value starts in the allocation: past the mutex, aligned for the value.
    private static var valueOffset: Int {
        let alignment = MemoryLayout<Value>.alignment
        return (MemoryLayout<pthread_mutex_t>.size + alignment - 1) / alignment * alignment
    }

    /// Guards `value`.
    public init(_ value: consuming sending Value) {
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: Self.valueOffset + MemoryLayout<Value>.size,
            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<Value>.alignment))
        mutex = memory.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        #if DEBUG
        // Debug builds (the tests, the sanitizer runs) make a lock taken again by the thread that
        // holds it an error, caught below, instead of a silent hang.
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #else
        pthread_mutex_init(mutex, nil)
        #endif
        self.value = (memory + Self.valueOffset).bindMemory(to: Value.self, capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    /// Runs `body` on the value with the lock held.
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        let locked = pthread_mutex_lock(mutex)
        assert(locked == 0, "a lock taken again by the thread that holds it")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
