import ByteCoding

/// What a connecting or streaming device receives, one per SSE `data:` line.
public enum DeviceEvent: Sendable, Equatable {
    /// A notification.
    case notification(NotificationEvent)
    /// FCM threw stored messages away (FIRMessagingMessagesDeletedNotification): the app should
    /// do a full sync with its server.
    case messagesDeleted(reason: DeletionReason, count: Int)

    /// The event JSON of §5.
    public var json: JSONValue {
        switch self {
        case .notification(let event):
            event.json
        case .messagesDeleted(let reason, let count):
            .object(JSONObject([
                JSONObject.Member(key: "type", value: .string("messagesDeleted")),
                JSONObject.Member(key: "reason", value: .string(reason.rawValue)),
                JSONObject.Member(key: "count", value: .number(String(count))),
            ]))
        }
    }
}
