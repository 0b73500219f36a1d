/// The filters of `GET .../messages`; a message must match every one given.
public struct MessageLogFilter: Sendable, Equatable {
    /// Messages addressed to, or delivered to, the device with this FCM token.
    public var token: String?
    /// Messages sent to this topic, or with a condition that names it.
    public var topic: String?
    /// Messages with at least one delivery in this state now.
    public var state: DeliveryState?
    /// Messages accepted by this API.
    public var origin: DeliveryOrigin?
    /// Messages whose title, body or data holds this text, whatever its case (`MessageLogTextSearch`).
    public var text: String? {
        didSet { lowercasedText = text?.lowercased() }
    }
    /// `text`, lowercased once for every entry it is compared with.
    private(set) var lowercasedText: String?
    /// Messages sent after the message with this id (the decimal id of its name): ids grow with
    /// every send, so a reader that saw a message asks for what came since (docs/fcm.md,
    /// "Waiting for a message").
    public var afterMessageID: UInt64?

    /// Makes a filter; nil fields match everything.
    public init(
        token: String? = nil, topic: String? = nil, state: DeliveryState? = nil, origin: DeliveryOrigin? = nil,
        text: String? = nil, afterMessageID: UInt64? = nil
    ) {
        self.token = token
        self.topic = topic
        self.state = state
        self.origin = origin
        self.text = text
        self.lowercasedText = text?.lowercased()
        self.afterMessageID = afterMessageID
    }

    /// Whether only the entry itself is tested: no filter on its deliveries.
    var testsEntryOnly: Bool { token == nil && state == nil }
}
