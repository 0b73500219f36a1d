/// What a project keeps for one topic: its subscribers, so that a topic send need not scan
/// every device.
struct TopicRecord: Sendable {
    let name: String
    let createdAt: Timestamp
    let sequence: Int
    /// FCM tokens of the subscribed devices.
    var subscribers: Set<String> = []

    var summary: TopicSummary {
        TopicSummary(name: name, subscriberCount: subscribers.count, createdAt: createdAt, sequence: sequence)
    }
}
