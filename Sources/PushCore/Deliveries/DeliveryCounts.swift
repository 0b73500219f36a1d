/// How many stored deliveries are in each state: kept as deliveries are stored, moved and
/// dropped (`DeliveryStore`), so that `/metrics` reads them without visiting a delivery.
struct DeliveryCounts: Sendable, Equatable {
    private(set) var pending = 0
    private(set) var delivered = 0
    private(set) var expired = 0
    private(set) var collapsed = 0
    private(set) var deleted = 0
    private(set) var dropped = 0

    /// The count of `state`.
    subscript(state: DeliveryState) -> Int {
        get {
            switch state {
            case .pending: pending
            case .delivered: delivered
            case .expired: expired
            case .collapsed: collapsed
            case .deleted: deleted
            case .dropped: dropped
            }
        }
        set {
            switch state {
            case .pending: pending = newValue
            case .delivered: delivered = newValue
            case .expired: expired = newValue
            case .collapsed: collapsed = newValue
            case .deleted: deleted = newValue
            case .dropped: dropped = newValue
            }
        }
    }

    /// Counts a delivery that went from `old` to `new` (no change when they are equal).
    mutating func move(from old: DeliveryState, to new: DeliveryState) {
        guard old != new else { return }
        self[old] -= 1
        self[new] += 1
    }

    /// Adds `added` and takes away `removed`, state by state.
    mutating func add(_ added: DeliveryCounts, minus removed: DeliveryCounts) {
        pending += added.pending - removed.pending
        delivered += added.delivered - removed.delivered
        expired += added.expired - removed.expired
        collapsed += added.collapsed - removed.collapsed
        deleted += added.deleted - removed.deleted
        dropped += added.dropped - removed.dropped
    }

    /// The counts by state, every state present.
    var byState: [DeliveryState: Int] {
        Dictionary(uniqueKeysWithValues: DeliveryState.allCases.map { ($0, self[$0]) })
    }
}
