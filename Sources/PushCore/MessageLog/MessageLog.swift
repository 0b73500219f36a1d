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

    /// The entries in send order: full chunks of `chunkCapacity`, then the one being filled.
    /// The log holds every send of a long run, and one array would copy all of them each time
    /// it doubled.
    private var fullChunks: [[Entry]] = []
    private var currentChunk: [Entry] = []
    private var nextSequence = 1
    /// Large enough that the chunks' own array stays small. The first chunk grows as an array
    /// does, so that a short log keeps no more room than it needs.
    static let chunkCapacity = 4096

    mutating func append(
        name: String, origin: DeliveryOrigin, sentAt: Timestamp, target: MessageTarget,
        requestBody: [UInt8], deliveryNumbers: Range<Int>
    ) {
        if currentChunk.count == Self.chunkCapacity {
            fullChunks.append(currentChunk)
            currentChunk = []
            currentChunk.reserveCapacity(Self.chunkCapacity)
        }
        currentChunk.append(
            Entry(
                sequence: nextSequence, name: name, origin: origin, sentAt: sentAt,
                target: target, requestBody: APNsNotification.compacted(requestBody),
                deliveryNumbers: deliveryNumbers))
        nextSequence += 1
    }

    mutating func clear() {
        fullChunks.removeAll()
        currentChunk.removeAll()
    }

    /// A page of the matching messages, newest first. Only the page's entries are turned into
    /// `LoggedMessage`s: a log can hold every send of a long run.
    func page(
        matching filter: MessageLogFilter, deliveries: DeliveryStore, page request: PageRequest
    ) throws(PagingError) -> Page<LoggedMessage> {
        let matching = (fullChunks + [currentChunk]).joined().reversed().filter { entry in
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
        let chosen = try request.page(of: matching, descending: true, position: \.sequence)
        return Page(
            items: chosen.items.map { entry in
                LoggedMessage(
                    messageID: MessageName.messageID(of: entry.name),
                    name: entry.name, origin: entry.origin, sentAt: entry.sentAt, target: entry.target,
                    requestBody: entry.requestBody, deliveries: entry.deliveryNumbers.compactMap { deliveries[$0] },
                    sequence: entry.sequence)
            },
            nextPageToken: chosen.nextPageToken)
    }
}
