/// One value per event loop, each behind a lock of its own: what a request changes on its way
/// (a counter, a small cache) lives in the value of the loop that read it, so requests of
/// different loops never wait on one lock or move one cache line. The lock of a value is
/// taken by its loop, and now and then by a reader of all of them (`forEach`), one at a time.
///
/// Inlinable, so that callers in other modules get it specialized for their value: generic
/// code called across a module boundary otherwise runs unspecialized, on every request.
public final class PerLoop<Value: Sendable>: Sendable {
    /// One loop's value, padded so that two loops' values, allocated one after the other, do
    /// not share a cache line.
    @usableFromInline
    final class Slot: Sendable {
        @usableFromInline let value: Locked<Value>
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        @usableFromInline
        init(_ value: sending Value) {
            self.value = Locked(value)
        }
    }

    @usableFromInline let slots: [Slot]

    /// A value for each of `loops` loops (at least one), each made by `make`.
    @inlinable
    public init(loops: Int, _ make: () -> sending Value) {
        slots = (0..<max(1, loops)).map { _ in Slot(make()) }
    }

    /// Runs `body` on loop `loop`'s value with its lock held (a loop number past the last wraps
    /// around).
    @inlinable
    public func withLock<Result>(loop: Int, _ body: (inout Value) -> Result) -> Result {
        let index = loop < slots.count ? loop : loop % slots.count
        return slots[index].value.withLock { body(&$0) }
    }

    /// Runs `body` on each loop's value in turn, holding one lock at a time.
    @inlinable
    public func forEach(_ body: (inout Value) -> Void) {
        for slot in slots { slot.value.withLock { body(&$0) } }
    }
}
