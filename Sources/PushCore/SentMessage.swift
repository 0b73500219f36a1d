/// An accepted send.
public struct SentMessage: Sendable, Equatable {
    /// The message id.
    public var messageID: String
    /// `projects/{project}/messages/{id}`, the `name` of the FCM answer.
    public var name: String
    /// One per device reached, in the state the send left them in (`delivered` to an online
    /// device, `pending`, `dropped`, `expired` or `deleted`).
    public var deliveries: [Delivery]
}
