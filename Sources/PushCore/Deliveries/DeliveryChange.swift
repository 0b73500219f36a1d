import Locking
import Synchronization

/// A stored delivery that left `pending` for good without reaching its device: `collapsed`,
/// `expired`, `deleted` or `dropped` (a `delivered` one is told by the routes, once the device's
/// stream has sent it). Noted only while somebody listens (`DeliveryChangeListener`).
public struct DeliveryChange: Sendable, Equatable {
    /// The delivery's number (`d-<number>`).
    public let number: Int
    /// The device's registration token.
    public let token: String
    /// The state it entered.
    public let state: DeliveryState
    /// The history's entry for the change: its reason is put in words only when read (a
    /// collapse on every APNs push to an offline device would otherwise make them each time).
    let transition: DeliveryTransition?

    /// Why, as its history says (`replaced by d-18`, `offlineTooLong`, ...).
    public var reason: String? { transition?.reason }

    /// A change of the delivery `number` to `token` into `state`, for the history entry `transition`.
    init(number: Int, token: String, state: DeliveryState, transition: DeliveryTransition?) {
        self.number = number
        self.token = token
        self.state = state
        self.transition = transition
    }

    /// Whether a change to `state` is one told here.
    static func isTold(_ state: DeliveryState) -> Bool {
        state != .pending && state != .delivered
    }
}

/// Who hears of `DeliveryChange`s (the event feed and webhooks, docs/events.md). While nobody
/// listens, a change of a device's shard costs one atomic load; with listeners, the changes a call
/// made are noted under the shard's lock and told once the lock is released.
public final class DeliveryChangeListener: Sendable {
    private let audience = Atomic<Int>(0)
    /// In a box: a closure kept in a generic lock's value is wrapped in a conversion thunk each
    /// time the lock's body takes it in and out, and the thunks piled up, one per change told.
    private let listener = Locked<Listener?>(nil)

    private final class Listener: Sendable {
        let hear: @Sendable (_ project: String, _ changes: [DeliveryChange]) -> Void
        init(_ hear: @escaping @Sendable (_ project: String, _ changes: [DeliveryChange]) -> Void) { self.hear = hear }
    }

    init() {}

    /// Sets what hears the changes of every project (once, before the first request).
    public func listen(_ listener: @escaping @Sendable (_ project: String, _ changes: [DeliveryChange]) -> Void) {
        let boxed = Listener(listener)
        self.listener.withLock { $0 = boxed }
    }

    /// Counts `count` more (or, negative, fewer) listeners: changes are noted while there is one.
    public func addAudience(_ count: Int) {
        audience.add(count, ordering: .relaxed)
    }

    /// Whether changes are noted now.
    var isListening: Bool { audience.load(ordering: .relaxed) > 0 }

    /// Tells the listener of `changes` in `project`; called with no lock of the core held.
    func tell(project: String, _ changes: [DeliveryChange]) {
        guard !changes.isEmpty, let listener = listener.withLock({ $0 }) else { return }
        listener.hear(project, changes)
    }
}
