/// An accepted send.
public struct SentMessage: Sendable, Equatable {
    /// The message id: the end of `name`, which a send makes alone.
    public var messageID: String { MessageName.messageID(of: name) }
    /// `projects/{project}/messages/{id}`, the `name` of the FCM answer.
    public var name: String
    /// One per device reached, in the state the send left them in (`delivered` to an online
    /// device, `pending`, `dropped`, `expired` or `deleted`).
    public var deliveries: [Delivery] { only.map { [$0] } ?? several }

    // A token send reaches one device and its answer needs only the name: that delivery is kept
    // apart so that the send makes and frees no array. Exactly one of the two is used.
    private let only: Delivery?
    private let several: [Delivery]

    init(name: String, deliveries: [Delivery]) {
        self.name = name
        if deliveries.count == 1 {
            only = deliveries[0]
            several = []
        } else {
            only = nil
            several = deliveries
        }
    }

    init(name: String, delivery: Delivery) {
        self.name = name
        only = delivery
        several = []
    }
}
