/// The emulator's counters, each the number the next new thing gets: message ids and delivery
/// numbers (the whole emulator's) and each project's device, topic, subscription, log and fault
/// sequences. Each has a maximum that a state snapshot holds exactly; an operation that would
/// take a counter past it is refused (`CounterExhausted`), so every export imports again
/// (docs/state.md, "Counters").
public enum Counter: String, Sendable, CaseIterable {
    case messageID = "nextMessageId"
    case deliveryNumber = "nextDeliveryNumber"
    case deviceSequence
    case topicSequence
    case subscriptionSequence
    case logSequence
    case faultID = "faultId"

    /// The largest message id counter: 19 digits, the length of FCM's ids, so the last id issued
    /// is 9999999999999999998.
    public static let largestMessageID: UInt64 = 9_999_999_999_999_999_999

    /// The largest value the counter may hold. Message ids: `largestMessageID`; the others
    /// 2⁵³, the largest whole number a JavaScript reader of a snapshot holds exactly.
    public var maximum: UInt64 {
        self == .messageID ? Self.largestMessageID : UInt64(SnapshotReader.largestInt)
    }

    /// Where a snapshot keeps it: `counters.nextMessageId`, or a project's `next.deviceSequence`.
    public var snapshotPath: String {
        switch self {
        case .messageID, .deliveryNumber: "counters.\(rawValue)"
        default: "next.\(rawValue)"
        }
    }

    /// What it numbers, for people.
    var numbers: String {
        switch self {
        case .messageID: "message ids"
        case .deliveryNumber: "delivery numbers"
        case .deviceSequence: "device sequences of this project"
        case .topicSequence: "topic sequences of this project"
        case .subscriptionSequence: "subscription sequences of this project"
        case .logSequence: "message log sequences of this project"
        case .faultID: "fault ids of this project"
        }
    }

    /// Nil when a counter at `value` can number `count` more; the error otherwise.
    static func check(_ counter: Counter, at value: UInt64, toNumber count: Int = 1) -> CounterExhausted? {
        value <= counter.maximum && UInt64(count) <= counter.maximum - value ? nil : CounterExhausted(counter: counter)
    }

    /// `check(_:at:toNumber:)` for the counters kept as `Int`.
    static func check(_ counter: Counter, at value: Int, toNumber count: Int = 1) -> CounterExhausted? {
        check(counter, at: UInt64(max(value, 0)), toNumber: count)
    }
}

/// An operation was refused because it would take a counter past its maximum; nothing changed.
/// Only a snapshot imported with a counter at (or within a few of) its maximum gets here.
public struct CounterExhausted: Error, Sendable, Equatable {
    /// The counter that is used up.
    public let counter: Counter

    /// The error for `counter`.
    public init(counter: Counter) {
        self.counter = counter
    }

    /// What happened and what to do.
    public var message: String {
        "The emulator's \(counter.numbers) are used up: \(counter.snapshotPath) in its state is at its maximum,"
            + " \(counter.maximum). Reset the state (DELETE /emulator/v1/state) or import a snapshot whose"
            + " counters are lower."
    }

    /// 500 INTERNAL in Google's shape, with FCM's INTERNAL detail: the answer of an FCM send, a
    /// topic call and the emulator's own API.
    public var googleError: GoogleError {
        GoogleError(status: .internal, message: message, details: [GoogleErrorDetail.fcmError(.internal)])
    }
}
