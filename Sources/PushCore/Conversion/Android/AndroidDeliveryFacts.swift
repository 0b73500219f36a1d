/// What FCM adds to a message for one Android or web app, beside what the sender wrote
/// (docs/android.md, docs/web.md).
public struct AndroidDeliveryFacts: Sendable, Equatable {
    /// `from`: the project number, or `/topics/<name>` for a topic send (a condition send gives
    /// the project number: our convention).
    public var from: String
    /// The project number (the Sender ID, `google.c.sender.id`).
    public var senderID: String
    /// The v1 message id, which the app sees as its message id (our convention).
    public var messageID: String
    /// When FCM accepted the message, in milliseconds since the epoch.
    public var sentAtMilliseconds: Int64
    /// The app's package name (Android) or origin (web).
    public var appID: String

    /// Makes the facts of one delivery.
    public init(from: String, senderID: String, messageID: String, sentAtMilliseconds: Int64, appID: String) {
        self.from = from
        self.senderID = senderID
        self.messageID = messageID
        self.sentAtMilliseconds = sentAtMilliseconds
        self.appID = appID
    }
}
