/// An accepted send.
public struct SentMessage: Sendable, Equatable {
    /// The message's name, the `name` of the FCM answer.
    public var messageName: MessageName
    /// `projects/{project}/messages/{id}`.
    public var name: String { messageName.text }
    /// The message id.
    public var messageID: String { messageName.messageID }
    /// The numbers (`Delivery.number`) of the deliveries made, one per device reached; the
    /// deliveries are read from the message log under `name`. Numbers only: every answer needs
    /// just the name, and a copy of the delivery in it cost as much to make as to free.
    public var deliveryNumbers: Range<Int>
}
