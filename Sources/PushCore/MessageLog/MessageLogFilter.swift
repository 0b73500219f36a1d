/// The filters of `GET .../messages`; a message must match every one given.
public struct MessageLogFilter: Sendable, Equatable {
    /// Messages addressed to, or delivered to, the device with this FCM token.
    public var token: String?
    /// Messages sent to this topic, or with a condition that names it.
    public var topic: String?
    /// Messages with at least one delivery in this state now.
    public var state: DeliveryState?

    /// Makes a filter; nil fields match everything.
    public init(token: String? = nil, topic: String? = nil, state: DeliveryState? = nil) {
        self.token = token
        self.topic = topic
        self.state = state
    }
}
