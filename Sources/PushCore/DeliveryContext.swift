/// What the emulator knows when it builds one device's notification for a send.
public struct DeliveryContext: Sendable {
    /// The message id (goes into `gcm.message_id`).
    public var messageID: String
    /// `projects/{project}/messages/{id}`.
    public var messageName: String
    /// The device the notification is for (its bundle id is the default `apns-topic`).
    public var device: Device
    /// The project's sender id (goes into `google.c.sender.id`).
    public var senderID: String
    /// A fresh UUID for `apns-id` when the sender gave none.
    public var apnsID: String
    /// The emulator's time of the send.
    public var now: Timestamp
}
