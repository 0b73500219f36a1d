/// A project's deliveries by number. Numbers only grow, so the store is an array in number
/// order searched by bisection: appending never rehashes, and a long queue costs one array.
struct DeliveryStore: Sendable {
    private var deliveries: [Delivery] = []

    /// How many deliveries it holds.
    var count: Int { deliveries.count }

    /// The delivery numbered `number`; setting a number above every stored one appends it,
    /// setting nil removes it.
    subscript(number: Int) -> Delivery? {
        get {
            position(of: number).map { deliveries[$0] }
        }
        set {
            // Sends append: a new number is above every stored one.
            if let newValue, (deliveries.last?.number ?? .min) < number {
                precondition(newValue.number == number, "a delivery is stored under its own number")
                append(newValue)
            } else if let position = position(of: number) {
                if let newValue { deliveries[position] = newValue } else { deliveries.remove(at: position) }
            } else {
                precondition(newValue == nil, "deliveries are stored in number order")
            }
        }
    }

    /// Stores a new delivery, numbered above every stored one. A send stores its deliveries
    /// this way: through the subscript each would be copied into an optional first.
    mutating func append(_ delivery: consuming Delivery) {
        precondition((deliveries.last?.number ?? .min) < delivery.number, "deliveries are stored in number order")
        deliveries.append(delivery)
    }

    /// Drops the deliveries `remove` accepts.
    mutating func removeAll(where remove: (Delivery) -> Bool) {
        deliveries.removeAll(where: remove)
    }

    private func position(of number: Int) -> Int? {
        var low = 0
        var high = deliveries.count
        while low < high {
            let middle = (low + high) / 2
            let found = deliveries[middle].number
            if found == number { return middle }
            if found < number { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
