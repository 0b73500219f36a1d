import ByteCoding

/// A topic of a project as `GET /emulator/v1/projects/{project}/topics` lists it. A topic comes
/// into being with its first subscriber and stays listed (with 0 subscribers) after its last
/// one leaves, until the project is reset.
public struct TopicSummary: Sendable, Equatable {
    /// The topic's name.
    public let name: String
    /// How many devices are subscribed now.
    public let subscriberCount: Int
    /// When its first subscription was made.
    public let createdAt: Timestamp
    /// Order of creation within the project, for paging.
    let sequence: Int

    /// `{"name", "subscriberCount", "createTime"}`.
    public var json: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "name", value: .string(name)),
            JSONObject.Member(key: "subscriberCount", value: .number(String(subscriberCount))),
            JSONObject.Member(key: "createTime", value: .string(createdAt.rfc3339)),
        ]))
    }
}
