import ByteCoding

/// One message on its way to one device (§4 of the spec).
public struct Delivery: Sendable, Equatable {
    /// The emulator-wide serial number; `"d-\(number)"` is its public id.
    public let number: Int
    /// The name of the message it belongs to (`projects/demo/messages/...`).
    public let messageName: MessageName
    /// The device's FCM registration token.
    public let token: String
    /// Which API sent it.
    public let origin: DeliveryOrigin
    /// When it was accepted.
    public let enqueuedAt: Timestamp
    /// After this instant it is no longer delivered (from `apns-expiration`, or the Android or
    /// web message's time to live).
    public let expiresAt: Timestamp
    /// `apns-expiration: 0` (or a time to live of 0): delivered only if the device is online at send time.
    public let isNowOrNever: Bool
    /// Whether the notification has an `apns-collapse-id`, or the Android or web message a
    /// collapse key (known without a scan of its headers).
    let hasCollapseID: Bool
    /// What an Apple device receives (empty for an Android or web device).
    public let notification: APNsNotification
    /// What an Android or web device receives; nil for an Apple device.
    public let platformMessage: PlatformMessage?
    /// The app state the presentation notes are for: the device's at send time, then at delivery.
    var presentedAppState: AppState
    /// Until when collapsible-message throttling delays it (docs/quotas.md); nil when it was
    /// never delayed. Kept once the time has passed, to show that it was.
    public internal(set) var heldUntil: Timestamp?
    /// The states after the first (`pending` at `enqueuedAt`), which every delivery has: most
    /// stored deliveries never change state, and an empty array takes no memory. No default
    /// value: with one, the initializer builds the delivery in a temporary and copies it out.
    private var laterTransitions: [DeliveryTransition]

    init(
        number: Int, messageName: MessageName, token: String, origin: DeliveryOrigin, enqueuedAt: Timestamp,
        expiresAt: Timestamp, isNowOrNever: Bool, hasCollapseID: Bool, notification: APNsNotification,
        platformMessage: PlatformMessage? = nil, presentedAppState: AppState, laterTransitions: [DeliveryTransition] = []
    ) {
        self.number = number
        self.messageName = messageName
        self.token = token
        self.origin = origin
        self.enqueuedAt = enqueuedAt
        self.expiresAt = expiresAt
        self.isNowOrNever = isNowOrNever
        self.hasCollapseID = hasCollapseID
        self.notification = notification
        self.platformMessage = platformMessage
        self.presentedAppState = presentedAppState
        self.laterTransitions = laterTransitions
    }

    /// What the app would do with it, in `presentedAppState` (worked out on each read).
    public var presentation: Presentation {
        Presentation.describe(notification, origin: origin, appState: presentedAppState)
    }

    /// Every state it has been in, oldest first; the last is the current state.
    public var history: [DeliveryTransition] {
        [DeliveryTransition(state: .pending, at: enqueuedAt)] + laterTransitions
    }

    /// The public id, e.g. `d-17`.
    public var id: String { "d-\(number)" }

    /// The current state.
    public var state: DeliveryState { laterTransitions.last?.state ?? .pending }

    /// The last change of state, if it changed since `pending` (without building `history`).
    var lastTransition: DeliveryTransition? { laterTransitions.last }

    /// `apns-collapse-id`, or the Android or web message's collapse key, if any.
    public var collapseID: String? { platformMessage.map(\.collapseKey) ?? notification.collapseID }

    /// When it was delivered, if it was.
    public var deliveredAt: Timestamp? { laterTransitions.last(where: { $0.state == .delivered })?.at }

    /// Whether `expiresAt` has passed at `now`.
    public func isExpired(at now: Timestamp) -> Bool { now > expiresAt }

    mutating func move(to state: DeliveryState, at time: Timestamp, reason: String? = nil) {
        laterTransitions.append(DeliveryTransition(state: state, at: time, reason: reason))
    }

    /// Records that the delivery numbered `number` replaced this one (same collapse id, or
    /// Apple's one stored notification per topic).
    mutating func collapse(at time: Timestamp, replacedBy number: Int) {
        laterTransitions.append(DeliveryTransition(state: .collapsed, at: time, replacedBy: number))
    }

    /// The delivery as the message log shows it: an Apple device's `headers` and `payload`, or
    /// what an Android or web app gets (`PlatformMessage.contentMembers`).
    public var json: JSONValue {
        let content: [JSONObject.Member]
        let presentationJSON: JSONValue
        if let platformMessage {
            content = platformMessage.contentMembers
            presentationJSON = platformMessage.presentation(appState: presentedAppState)
        } else {
            content = [
                JSONObject.Member(key: "headers", value: notification.headers.json),
                JSONObject.Member(key: "payload", value: .object(notification.payload)),
            ]
            presentationJSON = presentation.json
        }
        return .object(JSONObject([
            JSONObject.Member(key: "id", value: .string(id)),
            JSONObject.Member(key: "messageName", value: .string(messageName.text)),
            JSONObject.Member(key: "token", value: .string(token)),
            JSONObject.Member(key: "origin", value: .string(origin.rawValue)),
            JSONObject.Member(key: "enqueuedAt", value: .string(enqueuedAt.rfc3339)),
            JSONObject.Member(key: "expiresAt", value: .string(expiresAt.rfc3339)),
            JSONObject.Member(key: "collapseId", value: collapseID.map(JSONValue.string) ?? .null),
        ] + (heldUntil.map { [JSONObject.Member(key: "heldUntil", value: .string($0.rfc3339))] } ?? []) + content + [
            JSONObject.Member(key: "state", value: .string(state.rawValue)),
            JSONObject.Member(key: "presentation", value: presentationJSON),
            JSONObject.Member(key: "history", value: .array(history.map(\.json))),
        ] + (platformMessage == nil ? [
            JSONObject.Member(
                key: "simulatorFile", value: .string(SimulatorPushFile.path(project: messageName.project, deliveryID: id))),
        ] : [])))
    }
}
