/// A project's record of accepted sends (§8); deliveries live in the project's store and are
/// looked up when the log is read, so the log always shows their current state.
struct MessageLog: Sendable {
    /// One accepted send, with its deliveries by number. The request is kept as the sender's
    /// bytes and parsed only when the log is read: the log holds every send.
    struct Entry: Sendable {
        var sequence: Int
        /// `projects/{project}/messages/{id}`; the id is not kept apart, the log holds every send.
        var name: String
        var origin: DeliveryOrigin
        var sentAt: Timestamp
        var target: MessageTarget
        var requestBody: [UInt8]
        /// A send's deliveries are numbered one after another.
        var deliveryNumbers: Range<Int>
    }

    private(set) var entries: [Entry] = []
    private var nextSequence = 1

    mutating func append(
        messageID: String, name: String, origin: DeliveryOrigin, sentAt: Timestamp, target: MessageTarget,
        requestBody: [UInt8], deliveryNumbers: Range<Int>
    ) {
        assert(name.hasSuffix("/" + messageID), "a message's name ends with its id")
        entries.append(
            Entry(
                sequence: nextSequence, name: name, origin: origin, sentAt: sentAt,
                target: target, requestBody: APNsNotification.compacted(requestBody),
                deliveryNumbers: deliveryNumbers))
        nextSequence += 1
    }

    mutating func clear() {
        entries.removeAll()
    }

    /// Matching messages, newest first.
    func messages(matching filter: MessageLogFilter, deliveries: DeliveryStore) -> [LoggedMessage] {
        entries.reversed().compactMap { entry in
            let found = entry.deliveryNumbers.compactMap { deliveries[$0] }
            if let token = filter.token {
                let addressed = entry.target == .token(token) || entry.target == .fid(token)
                guard addressed || found.contains(where: { $0.token == token }) else { return nil }
            }
            if let topic = filter.topic, !entry.target.names(topic: topic) { return nil }
            if let state = filter.state, !found.contains(where: { $0.state == state }) { return nil }
            return LoggedMessage(
                messageID: String(entry.name[entry.name.index(after: entry.name.lastIndex(of: "/")!)...]),
                name: entry.name, origin: entry.origin, sentAt: entry.sentAt,
                target: entry.target, requestBody: entry.requestBody, deliveries: found, sequence: entry.sequence)
        }
    }
}
