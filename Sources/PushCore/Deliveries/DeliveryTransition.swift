import ByteCoding

/// One entry of a delivery's state history.
public struct DeliveryTransition: Sendable, Equatable {
    /// The state entered.
    public var state: DeliveryState
    /// When, on the emulator's clock.
    public var at: Timestamp
    /// Why, for states that need explaining (`offlineTooLong`, `replaced by d-18`, ...).
    public var reason: String? {
        get { cause?.text }
        set { cause = newValue.map(Cause.text) }
    }
    /// The reason as it was noted: a replacement keeps the number of the delivery that replaced
    /// it, and the words are made only when shown (every APNs send to an offline device
    /// replaces one, and making them took more than a tenth of its queueing).
    private var cause: Cause?

    private enum Cause: Sendable {
        case text(String)
        case replacedBy(deliveryNumber: Int)

        var text: String {
            switch self {
            case .text(let text): text
            case .replacedBy(let number): "replaced by d-\(number)"
            }
        }
    }

    /// Makes a history entry.
    public init(state: DeliveryState, at: Timestamp, reason: String? = nil) {
        self.state = state
        self.at = at
        cause = reason.map(Cause.text)
    }

    /// An entry for a delivery replaced (collapsed) by the delivery numbered `number`.
    init(state: DeliveryState, at: Timestamp, replacedBy number: Int) {
        self.state = state
        self.at = at
        cause = .replacedBy(deliveryNumber: number)
    }

    /// Entries are equal when they say the same: the same state, time and reason in words.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.state == rhs.state && lhs.at == rhs.at && lhs.reason == rhs.reason
    }

    /// `{"state", "at", "reason"?}`.
    public var json: JSONValue {
        var object = JSONObject([
            JSONObject.Member(key: "state", value: .string(state.rawValue)),
            JSONObject.Member(key: "at", value: .string(at.rfc3339)),
        ])
        if let reason { object["reason"] = .string(reason) }
        return .object(object)
    }
}
