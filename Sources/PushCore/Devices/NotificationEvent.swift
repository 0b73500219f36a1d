import ByteCoding

/// A notification handed to a device: the `notification` event of §5.
public struct NotificationEvent: Sendable, Equatable {
    /// The delivery id, e.g. `d-17`.
    public var id: String
    /// The message's name.
    public var messageName: String
    /// Which API sent it.
    public var origin: DeliveryOrigin
    /// When the message was accepted.
    public var sentAt: Timestamp
    /// When the device got it.
    public var deliveredAt: Timestamp
    /// The APNs headers.
    public var headers: [HeaderField]
    /// The APNs payload.
    public var payload: JSONObject
    /// What the app does with it.
    public var presentation: Presentation
    /// What an Android or web device receives (then `headers` and `payload` are empty).
    public var platformMessage: PlatformMessage?

    /// The event for a delivered `delivery`.
    init(delivery: Delivery, deliveredAt: Timestamp) {
        id = delivery.id
        messageName = delivery.messageName.text
        origin = delivery.origin
        sentAt = delivery.enqueuedAt
        self.deliveredAt = deliveredAt
        headers = delivery.notification.headers
        payload = delivery.notification.payload
        presentation = delivery.presentation
        platformMessage = delivery.platformMessage
        presentedAppState = delivery.presentedAppState
    }

    /// The app state the presentation notes are for.
    var presentedAppState: AppState

    /// The event JSON, fields in the order of docs/events.md: an Apple device's `headers` and
    /// `payload`, or what an Android or web app gets.
    public var json: JSONValue {
        var members = [
            JSONObject.Member(key: "type", value: .string("notification")),
            JSONObject.Member(key: "id", value: .string(id)),
            JSONObject.Member(key: "messageName", value: .string(messageName)),
            JSONObject.Member(key: "origin", value: .string(origin.rawValue)),
            JSONObject.Member(key: "sentAt", value: .string(sentAt.rfc3339)),
            JSONObject.Member(key: "deliveredAt", value: .string(deliveredAt.rfc3339)),
        ]
        if let platformMessage {
            members += platformMessage.contentMembers
            members.append(
                JSONObject.Member(key: "presentation", value: platformMessage.presentation(appState: presentedAppState)))
        } else {
            members += [
                JSONObject.Member(key: "headers", value: headers.json),
                JSONObject.Member(key: "payload", value: .object(payload)),
                JSONObject.Member(key: "presentation", value: presentation.json),
            ]
        }
        return .object(JSONObject(members))
    }
}
