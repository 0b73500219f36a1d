/// A project's record of accepted sends (§8); deliveries live in the project's store and are
/// looked up when the log is read, so the log always shows their current state.
struct MessageLog: Sendable {
    /// One accepted send, with its deliveries by number.
    struct Entry: Sendable {
        var sequence: Int
        var messageID: String
        var name: String
        var origin: DeliveryOrigin
        var sentAt: Timestamp
        var target: MessageTarget
        var request: JSONValue
        var deliveryNumbers: [Int]
    }

    private(set) var entries: [Entry] = []
    private var nextSequence = 1

    mutating func append(
        messageID: String, name: String, origin: DeliveryOrigin, sentAt: Timestamp, target: MessageTarget,
        request: JSONValue, deliveryNumbers: [Int]
    ) {
        entries.append(
            Entry(
                sequence: nextSequence, messageID: messageID, name: name, origin: origin, sentAt: sentAt,
                target: target, request: request, deliveryNumbers: deliveryNumbers))
        nextSequence += 1
    }

    mutating func clear() {
        entries.removeAll()
    }

    /// Matching messages, newest first.
    func messages(matching filter: MessageLogFilter, deliveries: [Int: Delivery]) -> [LoggedMessage] {
        entries.reversed().compactMap { entry in
            let found = entry.deliveryNumbers.compactMap { deliveries[$0] }
            if let token = filter.token {
                let addressed = entry.target == .token(token) || entry.target == .fid(token)
                guard addressed || found.contains(where: { $0.token == token }) else { return nil }
            }
            if let topic = filter.topic, !entry.target.names(topic: topic) { return nil }
            if let state = filter.state, !found.contains(where: { $0.state == state }) { return nil }
            return LoggedMessage(
                messageID: entry.messageID, name: entry.name, origin: entry.origin, sentAt: entry.sentAt,
                target: entry.target, request: entry.request, deliveries: found, sequence: entry.sequence)
        }
    }
}
