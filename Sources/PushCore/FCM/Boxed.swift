/// A value kept on the heap behind one reference. A large part that is rarely present, stored
/// boxed, leaves the struct holding it that much smaller, and every copy of it that much cheaper.
final class Boxed<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The value, never changed: a change boxes a new one.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    static func == (lhs: Boxed, rhs: Boxed) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }
}
