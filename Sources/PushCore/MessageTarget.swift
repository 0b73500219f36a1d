/// Whom a message was addressed to.
public enum MessageTarget: Sendable, Equatable {
    /// An FCM registration token.
    case token(String)
    /// A Firebase installation id; treated like a token.
    case fid(String)
    /// An APNs device token (the APNs provider API).
    case apnsToken(String)
    /// Every device subscribed to a topic.
    case topic(String)

    /// `{"token": "..."}` and so on, as the message log shows it.
    public var json: JSONValue {
        let (key, value): (String, String) =
            switch self {
            case .token(let token): ("token", token)
            case .fid(let fid): ("fid", fid)
            case .apnsToken(let token): ("apnsToken", token)
            case .topic(let topic): ("topic", topic)
            }
        return .object(JSONObject([JSONObject.Member(key: key, value: .string(value))]))
    }
}
