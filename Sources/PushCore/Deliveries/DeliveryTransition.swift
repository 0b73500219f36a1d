import ByteCoding

/// One entry of a delivery's state history.
public struct DeliveryTransition: Sendable, Equatable {
    /// The state entered.
    public var state: DeliveryState
    /// When, on the emulator's clock.
    public var at: Timestamp
    /// Why, for states that need explaining (`offlineTooLong`, `replaced by d-18`, ...).
    public var reason: String?

    /// Makes a history entry.
    public init(state: DeliveryState, at: Timestamp, reason: String? = nil) {
        self.state = state
        self.at = at
        self.reason = reason
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
