/// A project's deliveries across its shards, read together (the message log's reads, a state
/// export): each shard's store is in number order, and so is what this gives.
struct ProjectDeliveries: Sendable {
    private let stores: [DeliveryStore]

    init(_ stores: [DeliveryStore]) {
        self.stores = stores
    }

    /// The stored deliveries whose numbers are in `range`, in number order: each shard's found by
    /// bisection (a range costs what it holds), then merged.
    func deliveries(numbered range: Range<Int>) -> [Delivery] {
        var found = [Delivery]()
        var shardsWithSome = 0
        for store in stores {
            let part = store.deliveries(numbered: range)
            guard !part.isEmpty else { continue }
            shardsWithSome += 1
            found.append(contentsOf: part)
        }
        // A send to one device has its deliveries in one shard, in order already.
        if shardsWithSome > 1 { found.sort { $0.number < $1.number } }
        return found
    }

    /// Every stored delivery, in number order.
    var inNumberOrder: [Delivery] {
        stores.flatMap(\.inNumberOrder).sorted { $0.number < $1.number }
    }
}
