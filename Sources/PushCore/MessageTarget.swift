import ByteCoding

/// Whom a message is addressed to: an FCM v1 message's one target (`FCMMessage.target`), or the
/// device token of an APNs push. The one target type of sends, faults and the message log.
public enum MessageTarget: Sendable, Equatable {
    /// An FCM registration token.
    case token(String)
    /// A Firebase installation id; treated like a token.
    case fid(String)
    /// An APNs device token (the APNs provider API).
    case apnsToken(String)
    /// Every device subscribed to a topic.
    case topic(String)
    /// Every device whose subscriptions satisfy a condition (the sender's text; see `TopicCondition`).
    case condition(String)

    /// Whether it addresses devices through their subscriptions (FCM's 2048-byte limit applies).
    public var isTopicMessage: Bool {
        switch self {
        case .topic, .condition: true
        case .token, .fid, .apnsToken: false
        }
    }

    /// Whether it is this topic, or a condition with a term for it (the message log's `topic` filter).
    public func names(topic: String) -> Bool {
        switch self {
        case .topic(let name): name == topic
        case .condition(let text): (try? TopicCondition(parsing: text))?.topicNames.contains(topic) ?? false
        case .token, .fid, .apnsToken: false
        }
    }

    /// `{"token": "..."}` and so on, as the message log shows it.
    public var json: JSONValue {
        let (key, value): (String, String) =
            switch self {
            case .token(let token): ("token", token)
            case .fid(let fid): ("fid", fid)
            case .apnsToken(let token): ("apnsToken", token)
            case .topic(let topic): ("topic", topic)
            case .condition(let condition): ("condition", condition)
            }
        return .object(JSONObject([JSONObject.Member(key: key, value: .string(value))]))
    }
}
