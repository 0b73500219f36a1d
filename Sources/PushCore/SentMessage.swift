/// An accepted send.
public struct SentMessage: Sendable, Equatable {
    /// `projects/{project}/messages/{id}`, the `name` of the FCM answer.
    public var name: String
    /// The message id: the end of `name`, which a send makes alone.
    public var messageID: String { MessageName.messageID(of: name) }
    /// The numbers (`Delivery.number`) of the deliveries made, one per device reached; the
    /// deliveries are read from the message log under `name`. Numbers only: every answer needs
    /// just the name, and a copy of the delivery in it cost as much to make as to free.
    public var deliveryNumbers: Range<Int>
}
