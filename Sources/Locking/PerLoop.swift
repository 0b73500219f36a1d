/// One value per event loop, each behind a lock of its own: what a request changes on its way
/// (a counter, a small cache) lives in the value of the loop that read it, so requests of
/// different loops never wait on one lock or move one cache line. The lock of a value is
/// taken by its loop, and now and then by a reader of all of them (`forEach`), one at a time.
public final class PerLoop<Value: Sendable>: Sendable {
    /// One loop's value, padded so that two loops' values, allocated one after the other, do
    /// not share a cache line.
    private final class Slot: Sendable {
        let value: Locked<Value>
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(_ value: sending Value) {
            self.value = Locked(value)
        }
    }

    private let slots: [Slot]

    /// A value for each of `loops` loops (at least one), each made by `make`.
    public init(loops: Int, _ make: () -> sending Value) {
        slots = (0..<max(1, loops)).map { _ in Slot(make()) }
    }

    /// Runs `body` on loop `loop`'s value with its lock held (a loop number past the last wraps
    /// around).
    public func withLock<Result>(loop: Int, _ body: (inout Value) -> Result) -> Result {
        slots[loop % slots.count].value.withLock { body(&$0) }
    }

    /// Runs `body` on each loop's value in turn, holding one lock at a time.
    public func forEach(_ body: (inout Value) -> Void) {
        for slot in slots { slot.value.withLock { body(&$0) } }
    }
}
