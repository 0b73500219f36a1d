/// A project's deliveries by number. Numbers only grow, so the store is arrays in number order
/// searched by bisection: appending never rehashes, and a long queue costs a few arrays.
///
/// The deliveries are kept in chunks of at most `chunkCapacity`, none empty, one after another
/// in number order: a queue can hold every send of a long run, and one array would copy all of
/// them each time it doubled.
struct DeliveryStore: Sendable {
    private var chunks: [[Delivery]] = []
    private(set) var count = 0
    /// Large enough that the chunks' own array stays small. The first chunk grows as an array
    /// does, so that a short queue keeps no more room than it needs.
    let chunkCapacity: Int

    init(chunkCapacity: Int = 4096) {
        self.chunkCapacity = chunkCapacity
    }

    /// The delivery numbered `number`; setting a number above every stored one appends it,
    /// setting nil removes it.
    subscript(number: Int) -> Delivery? {
        get {
            position(of: number).map { chunks[$0.chunk][$0.index] }
        }
        set {
            // Sends append: a new number is above every stored one.
            if let newValue, lastNumber < number {
                precondition(newValue.number == number, "a delivery is stored under its own number")
                append(newValue)
            } else if let position = position(of: number) {
                if let newValue {
                    chunks[position.chunk][position.index] = newValue
                } else {
                    chunks[position.chunk].remove(at: position.index)
                    count -= 1
                    if chunks[position.chunk].isEmpty { chunks.remove(at: position.chunk) }
                }
            } else {
                precondition(newValue == nil, "deliveries are stored in number order")
            }
        }
    }

    /// The number of the last stored delivery, or `.min`.
    private var lastNumber: Int { chunks.last?.last?.number ?? .min }

    /// Stores a new delivery, numbered above every stored one. A send stores its deliveries
    /// this way: through the subscript each would be copied into an optional first.
    mutating func append(_ delivery: consuming Delivery) {
        precondition(lastNumber < delivery.number, "deliveries are stored in number order")
        if chunks.isEmpty || chunks[chunks.count - 1].count >= chunkCapacity {
            var chunk = [Delivery]()
            if !chunks.isEmpty { chunk.reserveCapacity(chunkCapacity) }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(delivery)
        count += 1
    }

    /// Drops the deliveries `remove` accepts.
    mutating func removeAll(where remove: (Delivery) -> Bool) {
        for chunk in chunks.indices { chunks[chunk].removeAll(where: remove) }
        chunks.removeAll(where: \.isEmpty)
        count = chunks.reduce(0) { $0 + $1.count }
    }

    /// The chunk and the place in it of the delivery numbered `number`, or nil.
    private func position(of number: Int) -> (chunk: Int, index: Int)? {
        // The last chunk whose first number is at most `number`.
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle][0].number <= number { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let chunk = low - 1
        low = 0
        high = chunks[chunk].count
        while low < high {
            let middle = (low + high) / 2
            let found = chunks[chunk][middle].number
            if found == number { return (chunk, middle) }
            if found < number { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
