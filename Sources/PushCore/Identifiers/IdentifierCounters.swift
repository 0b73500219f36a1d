import Synchronization

/// The counters the whole emulator shares: message ids, delivery numbers and stream subscriber
/// ids. Atomic, so that sends to different projects never wait on one lock for them. A send
/// takes its numbers while it holds its device's shard's lock, so each shard's deliveries are
/// numbered in the order its sends are applied (its `DeliveryStore` relies on that).
final class IdentifierCounters: Sendable {
    private let nextMessageID: Atomic<UInt64>
    private let nextDeliveryNumber = Atomic<Int>(1)
    private let nextSubscriberID = Atomic<Int>(1)

    /// Message ids from wall time (`MessageIDGenerator`), delivery numbers from 1.
    init(wallTimeMilliseconds: Int64) {
        nextMessageID = Atomic(MessageIDGenerator(wallTimeMilliseconds: wallTimeMilliseconds).upcoming)
    }

    /// The id the next message gets (a state snapshot keeps it; `validate_only` shows it).
    var upcomingMessageID: UInt64 { nextMessageID.load(ordering: .relaxed) }

    /// The number the next delivery gets.
    var upcomingDeliveryNumber: Int { nextDeliveryNumber.load(ordering: .relaxed) }

    /// Takes the next message id; nil when message ids are used up (nothing is taken then).
    func takeMessageID() -> UInt64? {
        var current = nextMessageID.load(ordering: .relaxed)
        while true {
            guard Counter.check(.messageID, at: current) == nil else { return nil }
            let (exchanged, found) = nextMessageID.weakCompareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return current }
            current = found
        }
    }

    /// Takes `count` delivery numbers, returning the first; nil when there are not that many
    /// left (nothing is taken then).
    func takeDeliveryNumbers(_ count: Int) -> Int? {
        var current = nextDeliveryNumber.load(ordering: .relaxed)
        while true {
            guard Counter.check(.deliveryNumber, at: current, toNumber: count) == nil else { return nil }
            let (exchanged, found) = nextDeliveryNumber.weakCompareExchange(
                expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return current }
            current = found
        }
    }

    /// A new id for a stream subscriber.
    func takeSubscriberID() -> Int {
        nextSubscriberID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Moves both counters on to at least these values (a state import: ids never go back).
    func skip(toMessageID messageID: UInt64, toDeliveryNumber deliveryNumber: Int) {
        // A loop rather than `Atomic.max`, which compared these as signed numbers here: a message
        // id above 2⁶³ (they go up to 19 nines) did not move the counter.
        var current = nextMessageID.load(ordering: .relaxed)
        while current < messageID {
            let (exchanged, found) = nextMessageID.weakCompareExchange(
                expected: current, desired: messageID, ordering: .relaxed)
            if exchanged { break }
            current = found
        }
        nextDeliveryNumber.max(deliveryNumber, ordering: .relaxed)
    }

    /// Starts both counters again, as in a new emulator (`DELETE /emulator/v1/state`).
    func reset(wallTimeMilliseconds: Int64) {
        nextMessageID.store(MessageIDGenerator(wallTimeMilliseconds: wallTimeMilliseconds).upcoming, ordering: .relaxed)
        nextDeliveryNumber.store(1, ordering: .relaxed)
    }
}
