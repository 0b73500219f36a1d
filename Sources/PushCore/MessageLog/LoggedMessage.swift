import ByteCoding

/// One accepted send as the message log shows it.
public struct LoggedMessage: Sendable, Equatable {
    /// The message id.
    public var messageID: String
    /// `projects/{project}/messages/{id}`.
    public var name: String
    /// Which API accepted it.
    public var origin: DeliveryOrigin
    /// When it was accepted.
    public var sentAt: Timestamp
    /// Whom it was addressed to.
    public var target: MessageTarget
    /// The request's bytes as the log keeps them (`LoggedRequestBody`): as the sender wrote them,
    /// or without the whitespace between tokens when they were long.
    public var requestBody: [UInt8]
    /// One delivery per device it reached, in their current state.
    public var deliveries: [Delivery]
    /// The request as the sender wrote it (`{}` if it no longer parses, which a logged request always does).
    public var request: JSONValue {
        (try? JSONParser.parse(requestBody)) ?? .object(JSONObject())
    }

    /// Position in the log (increases with every send), for paging.
    let sequence: Int

    /// `{"name", "messageId", "origin", "sentAt", "target", "request", "deliveries"}`.
    public var json: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "name", value: .string(name)),
            JSONObject.Member(key: "messageId", value: .string(messageID)),
            JSONObject.Member(key: "origin", value: .string(origin.rawValue)),
            JSONObject.Member(key: "sentAt", value: .string(sentAt.rfc3339)),
            JSONObject.Member(key: "target", value: target.json),
            JSONObject.Member(key: "request", value: request),
            JSONObject.Member(key: "deliveries", value: .array(deliveries.map(\.json))),
        ]))
    }
}
