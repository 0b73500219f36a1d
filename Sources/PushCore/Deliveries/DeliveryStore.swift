/// A project's deliveries by number. Numbers only grow, so the store is a `ChunkedArray` in
/// number order searched by bisection: appending never rehashes, and a long queue costs a few
/// arrays.
struct DeliveryStore: Sendable {
    private var deliveries: ChunkedArray<Delivery>
    /// The deliveries' numbers, position for position (both arrays are changed alike, so they are
    /// chunked alike): the bisection reads plain integers here, where reading a delivery copied
    /// it, retaining and releasing its every part, a dozen times a lookup.
    private var numbers: ChunkedArray<Int>
    /// The highest number ever stored, or `.min`: kept, because reading the last delivery's
    /// number would copy the delivery on every send.
    private var lastNumber = Int.min
    /// How many stored deliveries are in each state, kept by every change below.
    private(set) var counts = DeliveryCounts()
    /// The changes told to listeners (`DeliveryChange`) made since recording started; nil while
    /// not recording, so that a change costs a test of nil.
    private var changes: [DeliveryChange]?

    init(chunkCapacity: Int = ChunkedArray<Delivery>.defaultChunkCapacity) {
        deliveries = ChunkedArray(chunkCapacity: chunkCapacity)
        numbers = ChunkedArray(chunkCapacity: chunkCapacity)
    }

    /// Every stored delivery, in number order (a state snapshot writes them all).
    var inNumberOrder: ChunkedArray<Delivery> { deliveries }

    /// The highest number stored, nil when none is.
    var highestNumber: Int? { deliveries.isEmpty ? nil : lastNumber }

    /// Whether none is stored.
    var isEmpty: Bool { deliveries.isEmpty }

    /// How many deliveries are stored.
    var count: Int { deliveries.count }

    /// The delivery numbered `number`; setting a number above every one stored so far appends
    /// it, setting nil removes it.
    subscript(number: Int) -> Delivery? {
        get {
            position(of: number).map { deliveries[$0] }
        }
        set {
            // Sends append: a new number is above every stored one.
            if let newValue, lastNumber < number {
                precondition(newValue.number == number, "a delivery is stored under its own number")
                append(newValue)
            } else if let position = position(of: number) {
                // Read where it is stored: a copy would retain and release its every part.
                let oldState = Self.state(of: &deliveries[position])
                if let newValue {
                    counts.move(from: oldState, to: newValue.state)
                    deliveries[position] = newValue
                    if changes != nil { note(at: position, from: oldState) }
                } else {
                    counts[oldState] -= 1
                    deliveries.remove(at: position)
                    numbers.remove(at: position.position(in: ChunkedArray<Int>.self))
                }
            } else {
                precondition(newValue == nil, "deliveries are stored in number order")
            }
        }
    }

    /// The stored deliveries whose numbers are in `range`, in number order. Found by bisection at
    /// both ends, so a range costs what it holds: a log entry's range may name deliveries long
    /// dropped, or (from an imported state) billions never stored, which a lookup per number walked.
    func deliveries(numbered range: Range<Int>) -> Slice<ChunkedArray<Delivery>> {
        let start = numbers.partitioningIndex { $0 >= range.lowerBound }
        let end = numbers.partitioningIndex { $0 >= range.upperBound }
        return deliveries[start.position(in: ChunkedArray<Delivery>.self)..<end.position(in: ChunkedArray<Delivery>.self)]
    }

    /// Stores a new delivery, numbered above every one stored so far. A send stores its deliveries
    /// this way: through the subscript each would be copied into an optional first.
    mutating func append(_ delivery: consuming Delivery) {
        precondition(lastNumber < delivery.number, "deliveries are stored in number order")
        lastNumber = delivery.number
        let state = delivery.state
        counts[state] += 1
        numbers.append(lastNumber)
        deliveries.append(delivery)
        // Most sends queue a pending delivery, which is not told.
        if changes != nil, DeliveryChange.isTold(state) { note(at: deliveries.index(before: deliveries.endIndex), from: .pending) }
    }

    /// Runs `body` on the delivery numbered `number` where it is stored, changing it in place (the
    /// subscript's getter and setter would copy it out and back); nil when there is none.
    mutating func update<Result>(_ number: Int, _ body: (inout Delivery) -> Result) -> Result? {
        guard let position = position(of: number) else { return nil }
        let (result, oldState) = Self.update(&deliveries[position], counting: &counts, body)
        if changes != nil { note(at: position, from: oldState) }
        return result
    }

    /// Runs `body` on `delivery` and counts the state it leaves it in; returns the state before too.
    private static func update<Result>(
        _ delivery: inout Delivery, counting counts: inout DeliveryCounts, _ body: (inout Delivery) -> Result
    ) -> (Result, DeliveryState) {
        let oldState = delivery.state
        let result = body(&delivery)
        counts.move(from: oldState, to: delivery.state)
        return (result, oldState)
    }

    /// Starts noting the changes told to listeners.
    mutating func startRecording() {
        changes = []
    }

    /// The changes noted since `startRecording`, which stops.
    mutating func takeChanges() -> [DeliveryChange] {
        defer { changes = nil }
        return changes ?? []
    }

    /// Notes the change of the delivery at `position` from `oldState`, if it is one told. Read
    /// where it is stored, after the change: a delivery passed in as well as stored would be
    /// copied on every change, recording or not.
    private mutating func note(at position: ChunkedArray<Delivery>.Index, from oldState: DeliveryState) {
        // The state read in place: most changes (a send queued, a delivery delivered) are not told.
        let state = Self.state(of: &deliveries[position])
        guard state != oldState, DeliveryChange.isTold(state) else { return }
        let delivery = deliveries[position]
        changes?.append(DeliveryChange(number: delivery.number, token: delivery.token, state: state, transition: delivery.lastTransition))
    }

    /// The state of `delivery`, read in place.
    private static func state(of delivery: inout Delivery) -> DeliveryState {
        delivery.state
    }

    /// Drops the deliveries `remove` accepts.
    mutating func removeAll(where remove: (Delivery) -> Bool) {
        var removed = Set<Int>()
        var removedCounts = DeliveryCounts()
        deliveries.removeAll { delivery in
            guard remove(delivery) else { return false }
            removed.insert(delivery.number)
            removedCounts[delivery.state] += 1
            return true
        }
        counts.add(DeliveryCounts(), minus: removedCounts)
        if !removed.isEmpty { numbers.removeAll { removed.contains($0) } }
    }

    /// The position of the delivery numbered `number`, or nil.
    private func position(of number: Int) -> ChunkedArray<Delivery>.Index? {
        let found = numbers.partitioningIndex { $0 >= number }
        guard found != numbers.endIndex, numbers[found] == number else { return nil }
        return found.position(in: ChunkedArray<Delivery>.self)
    }
}
