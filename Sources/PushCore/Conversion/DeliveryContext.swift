/// What the emulator knows when it builds one device's notification for a send.
public struct DeliveryContext: Sendable {
    /// The message id (goes into `gcm.message_id`).
    public var messageID: String { messageName.messageID }
    /// `projects/{project}/messages/{id}`.
    public var messageName: MessageName
    /// The bundle id of the device the notification is for (the default `apns-topic`). Only
    /// this of the device: a copy of the whole device would retain and release each of its parts.
    public var bundleID: String
    /// The project's sender id (goes into `google.c.sender.id`).
    public var senderID: String
    /// A fresh UUID for `apns-id` when the sender gave none, kept as its bits: the notification
    /// stores it so, and writes it out only when its headers are read.
    public var generatedAPNsID: RandomUUID
    /// `generatedAPNsID` as text.
    public var apnsID: String { generatedAPNsID.text }
    /// The emulator's time of the send.
    public var now: Timestamp
}
