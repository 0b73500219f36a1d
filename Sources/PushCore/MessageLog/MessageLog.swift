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

    /// The entries in send order, so in `sequence` order: a page token is found by bisection.
    private var entries = ChunkedArray<Entry>()
    private var nextSequence = 1

    mutating func append(
        name: String, origin: DeliveryOrigin, sentAt: Timestamp, target: MessageTarget,
        requestBody: [UInt8], deliveryNumbers: Range<Int>
    ) {
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

    /// A page of the matching messages, newest first. A read costs what it returns, not what
    /// the log holds: the page token is found by bisection, the entries are read from there
    /// until the page is full (with a filter, past those that do not match), and only the
    /// page's entries are turned into `LoggedMessage`s.
    func page(
        matching filter: MessageLogFilter, deliveries: DeliveryStore, page request: PageRequest
    ) throws(PagingError) -> Page<LoggedMessage> {
        let (limit, resumePosition) = try request.checked()
        // The page token is the sequence of the page's first (newest) entry.
        let end = resumePosition.map { resume in entries.partitioningIndex { $0.sequence > resume } } ?? entries.endIndex
        var chosen = [Entry]()
        var nextPageToken: String?
        for entry in entries[..<end].reversed() where Self.matches(entry, filter, deliveries: deliveries) {
            guard chosen.count < limit else {
                nextPageToken = String(entry.sequence)
                break
            }
            chosen.append(entry)
        }
        return Page(
            items: chosen.map { entry in
                LoggedMessage(
                    messageID: MessageName.messageID(of: entry.name),
                    name: entry.name, origin: entry.origin, sentAt: entry.sentAt, target: entry.target,
                    requestBody: entry.requestBody, deliveries: entry.deliveryNumbers.compactMap { deliveries[$0] },
                    sequence: entry.sequence)
            },
            nextPageToken: nextPageToken)
    }

    private static func matches(_ entry: Entry, _ filter: MessageLogFilter, deliveries: DeliveryStore) -> Bool {
        if let topic = filter.topic, !entry.target.names(topic: topic) { return false }
        guard filter.token != nil || filter.state != nil else { return true }
        let found = entry.deliveryNumbers.lazy.compactMap { deliveries[$0] }
        if let token = filter.token {
            let addressed = entry.target == .token(token) || entry.target == .fid(token)
            guard addressed || found.contains(where: { $0.token == token }) else { return false }
        }
        if let state = filter.state, !found.contains(where: { $0.state == state }) { return false }
        return true
    }
}
