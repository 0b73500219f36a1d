/// One message on its way to one device (§4 of the spec).
public struct Delivery: Sendable, Equatable {
    /// The emulator-wide serial number; `"d-\(number)"` is its public id.
    public let number: Int
    /// The name of the message it belongs to (`projects/demo/messages/...`).
    public let messageName: String
    /// The device's FCM registration token.
    public let token: String
    /// Which API sent it.
    public let origin: DeliveryOrigin
    /// When it was accepted.
    public let enqueuedAt: Timestamp
    /// After this instant it is no longer delivered (from `apns-expiration`).
    public let expiresAt: Timestamp
    /// `apns-expiration: 0`: delivered only if the device is online at send time.
    public let isNowOrNever: Bool
    /// What the device receives.
    public let notification: APNsNotification
    /// What the app would do with it; refreshed with the device's app state on delivery.
    public internal(set) var presentation: Presentation
    /// Every state it has been in, oldest first; the last is the current state.
    public private(set) var history: [DeliveryTransition]

    init(
        number: Int, messageName: String, token: String, origin: DeliveryOrigin, enqueuedAt: Timestamp,
        expiresAt: Timestamp, isNowOrNever: Bool, notification: APNsNotification, presentation: Presentation
    ) {
        self.number = number
        self.messageName = messageName
        self.token = token
        self.origin = origin
        self.enqueuedAt = enqueuedAt
        self.expiresAt = expiresAt
        self.isNowOrNever = isNowOrNever
        self.notification = notification
        self.presentation = presentation
        self.history = [DeliveryTransition(state: .pending, at: enqueuedAt)]
    }

    /// The public id, e.g. `d-17`.
    public var id: String { "d-\(number)" }

    /// The current state.
    public var state: DeliveryState { history[history.count - 1].state }

    /// `apns-collapse-id`, if any.
    public var collapseID: String? { notification.collapseID }

    /// When it was delivered, if it was.
    public var deliveredAt: Timestamp? { history.last(where: { $0.state == .delivered })?.at }

    /// Whether `expiresAt` has passed at `now`.
    public func isExpired(at now: Timestamp) -> Bool { now > expiresAt }

    mutating func move(to state: DeliveryState, at time: Timestamp, reason: String? = nil) {
        history.append(DeliveryTransition(state: state, at: time, reason: reason))
    }

    /// The delivery as the message log shows it.
    public var json: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "id", value: .string(id)),
            JSONObject.Member(key: "messageName", value: .string(messageName)),
            JSONObject.Member(key: "token", value: .string(token)),
            JSONObject.Member(key: "origin", value: .string(origin.rawValue)),
            JSONObject.Member(key: "enqueuedAt", value: .string(enqueuedAt.rfc3339)),
            JSONObject.Member(key: "expiresAt", value: .string(expiresAt.rfc3339)),
            JSONObject.Member(key: "collapseId", value: collapseID.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "headers", value: notification.headers.json),
            JSONObject.Member(key: "payload", value: .object(notification.payload)),
            JSONObject.Member(key: "state", value: .string(state.rawValue)),
            JSONObject.Member(key: "presentation", value: presentation.json),
            JSONObject.Member(key: "history", value: .array(history.map(\.json))),
        ]))
    }
}
