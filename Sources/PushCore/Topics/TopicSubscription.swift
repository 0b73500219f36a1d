import ByteCoding

/// One device's subscription to one topic — the `TopicSubscription` resource of FCM's v1
/// topic API, also listed by the Instance ID API's `GET /iid/info/{token}`.
public struct TopicSubscription: Sendable, Equatable {
    /// The subscribed device's FCM token (or FID).
    public let registration: String
    /// The topic's name, without a `/topics/` prefix.
    public let topic: String
    /// When the subscription was made.
    public let createdAt: Timestamp
    /// Order of creation within the project, for paging.
    let sequence: Int

    /// `projects/{project}/registrations/{registration}/topicSubscriptions/{topic}`.
    public func name(project: String) -> String {
        "projects/\(project)/registrations/\(registration)/topicSubscriptions/\(topic)"
    }

    /// The resource as the v1 API answers it (proto JSON: lowerCamelCase names).
    public func json(project: String) -> JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "name", value: .string(name(project: project))),
            JSONObject.Member(key: "topicName", value: .string(topic)),
            JSONObject.Member(key: "createTime", value: .string(createdAt.rfc3339)),
        ]))
    }
}
