/// A project's record of accepted sends (§8); deliveries live in the project's store and are
/// looked up when the log is read, so the log always shows their current state.
///
/// The `token` and `topic` filters are indexed: each device keeps the sequences of the entries
/// that reached it (`Device.messageLogSequences`), and the log keeps those of the entries that
/// name each topic, so a filtered page reads the matching entries only, not the log between them.
/// The `state`, `origin` and `text` filters alone are a scan (states change after the send; see
/// docs/fcm.md).
struct MessageLog: Sendable {
    /// One accepted send, with its deliveries by number. The request is kept as bytes
    /// (`LoggedRequestBody`: the sender's, or compacted when long) and parsed only when the log
    /// is read: the log holds every send.
    struct Entry: Sendable {
        var sequence: Int
        var name: MessageName
        var origin: DeliveryOrigin
        var sentAt: Timestamp
        var target: MessageTarget
        var requestBody: [UInt8]
        /// A send's deliveries are numbered one after another.
        var deliveryNumbers: Range<Int>
    }

    /// The entries in send order, so in `sequence` order: a page token is found by bisection.
    private var entries = ChunkedArray<Entry>()
    /// The sequence of the next entry: a send gives it to the devices it reaches before it is logged.
    private(set) var nextSequence = 1
    /// The sequences of the entries whose target names each topic (a topic send to it, or a
    /// condition with a term for it), in log order: the `topic` filter reads these.
    private var sequencesByTopic: [String: ChunkedArray<Int>] = [:]

    mutating func append(
        name: MessageName, origin: DeliveryOrigin, sentAt: Timestamp, target: MessageTarget,
        requestBody: [UInt8], deliveryNumbers: Range<Int>
    ) {
        if target.isTopicMessage { indexTopics(of: target, sequence: nextSequence) }
        entries.append(
            Entry(
                sequence: nextSequence, name: name, origin: origin, sentAt: sentAt,
                target: target, requestBody: APNsNotification.compacted(requestBody),
                deliveryNumbers: deliveryNumbers))
        nextSequence += 1
    }

    /// Notes the next entry under each topic `target` names. Apart from `append`: most sends
    /// are to a token, and their target is then only tested, not taken apart.
    private mutating func indexTopics(of target: MessageTarget, sequence: Int) {
        switch target {
        case .topic(let topic):
            sequencesByTopic[topic, default: ChunkedArray()].append(sequence)
        case .condition(let text):
            // Validation parsed it already; a topic named twice is indexed once.
            let topics = (try? TopicCondition(parsing: text))?.topicNames ?? []
            for topic in Set(topics) { sequencesByTopic[topic, default: ChunkedArray()].append(sequence) }
        case .token, .fid, .apnsToken:
            break
        }
    }

    /// How many entries the log holds.
    var count: Int { entries.count }

    /// Every entry, in send order (a state snapshot writes them all).
    var allEntries: ChunkedArray<Entry> { entries }

    /// A log as a state snapshot kept it: `entries` in increasing sequence, all below
    /// `nextSequence`. The topic index is built again, as `append` builds it.
    init(restoring entries: [Entry], nextSequence: Int) {
        for entry in entries {
            if entry.target.isTopicMessage { indexTopics(of: entry.target, sequence: entry.sequence) }
            self.entries.append(entry)
        }
        self.nextSequence = nextSequence
    }

    init() {}

    /// Removes every entry; the devices' sequences are the project's to clear.
    mutating func clear() {
        entries.removeAll()
        sequencesByTopic.removeAll()
    }

    /// A page of the matching messages, newest first. A read costs what it returns, not what
    /// the log holds: the page token is found by bisection, and only the page's entries are
    /// turned into `LoggedMessage`s. With a `token` or `topic` filter the page reads that
    /// token's or topic's entries only (`sequencesOfToken`: those that reached the filter's
    /// token, which the project keeps per device); with only a `state` filter it reads the log
    /// from the page token on, past the entries that do not match, until the page is full.
    func page(
        matching filter: MessageLogFilter, sequencesOfToken: ChunkedArray<Int>, deliveries: ProjectDeliveries,
        page request: PageRequest
    ) throws(PagingError) -> Page<LoggedMessage> {
        let (limit, resumePosition) = try request.checked()
        var chosen = [Entry]()
        var nextPageToken: String?
        // The entry of `afterMessageID`, found from the newest back (a reader asks after a recent
        // one); nil when the log no longer holds it, and then ids are compared instead.
        let afterSequence = filter.afterMessageID.flatMap { id in entries.reversed().first { $0.name.id == id }?.sequence }
        // Adds `entry` to the page if it matches `rest`; false once the page is full, or once the
        // entries are older than `afterMessageID`'s.
        func take(_ entry: Entry, ifMatching rest: MessageLogFilter) -> Bool {
            if let afterSequence, entry.sequence <= afterSequence { return false }
            if let after = rest.afterMessageID, afterSequence == nil, entry.name.id <= after { return true }
            guard Self.matches(entry, rest, deliveries: deliveries) else { return true }
            guard chosen.count < limit else {
                nextPageToken = String(entry.sequence)
                return false
            }
            chosen.append(entry)
            return true
        }
        if let (sequences, rest) = indexed(filter, sequencesOfToken: sequencesOfToken) {
            // The page token is the sequence of the page's first (newest) entry.
            let end = resumePosition.map { resume in sequences.partitioningIndex { $0 > resume } } ?? sequences.endIndex
            for sequence in sequences[..<end].reversed() {
                guard let entry = entry(withSequence: sequence) else { continue }
                guard take(entry, ifMatching: rest) else { break }
            }
        } else {
            let end = resumePosition.map { resume in entries.partitioningIndex { $0.sequence > resume } } ?? entries.endIndex
            for entry in entries[..<end].reversed() {
                guard take(entry, ifMatching: filter) else { break }
            }
        }
        return Page(
            items: chosen.map { loggedMessage($0, deliveries: deliveries) },
            nextPageToken: nextPageToken)
    }

    /// The message with id `messageID`, if the log holds it. Ids are random, so this reads the
    /// log from the newest entry back (a message page opens from a recent send, most of the time).
    func message(withID messageID: UInt64, deliveries: ProjectDeliveries) -> LoggedMessage? {
        guard let entry = entries.reversed().first(where: { $0.name.id == messageID }) else { return nil }
        return loggedMessage(entry, deliveries: deliveries)
    }

    private func loggedMessage(_ entry: Entry, deliveries: ProjectDeliveries) -> LoggedMessage {
        LoggedMessage(
            messageID: entry.name.messageID,
            name: entry.name.text, origin: entry.origin, sentAt: entry.sentAt, target: entry.target,
            requestBody: entry.requestBody, deliveries: Array(deliveries.deliveries(numbered: entry.deliveryNumbers)),
            sequence: entry.sequence)
    }

    /// The sequences that can match `filter` by an index (the shorter list when both the token
    /// and the topic are given), and what is left of the filter to check on each entry; nil
    /// when neither is given.
    private func indexed(
        _ filter: MessageLogFilter, sequencesOfToken: ChunkedArray<Int>
    ) -> (sequences: ChunkedArray<Int>, rest: MessageLogFilter)? {
        let ofTopic = filter.topic.map { sequencesByTopic[$0] ?? ChunkedArray() }
        var rest = filter
        if filter.token != nil, ofTopic.map({ sequencesOfToken.count <= $0.count }) ?? true {
            rest.token = nil
            return (sequencesOfToken, rest)
        }
        guard let ofTopic else { return nil }
        rest.topic = nil
        return (ofTopic, rest)
    }

    /// The entry with `sequence`, found by bisection; nil once the log was cleared.
    private func entry(withSequence sequence: Int) -> Entry? {
        let found = entries.partitioningIndex { $0.sequence >= sequence }
        guard found != entries.endIndex, entries[found].sequence == sequence else { return nil }
        return entries[found]
    }

    private static func matches(_ entry: Entry, _ filter: MessageLogFilter, deliveries: ProjectDeliveries) -> Bool {
        if let topic = filter.topic, !entry.target.names(topic: topic) { return false }
        if let origin = filter.origin, entry.origin != origin { return false }
        if let text = filter.lowercasedText,
            !MessageLogTextSearch.matches(entry.requestBody, origin: entry.origin, lowercasedText: text)
        {
            return false
        }
        guard !filter.testsEntryOnly else { return true }
        let found = deliveries.deliveries(numbered: entry.deliveryNumbers)
        if let token = filter.token {
            let addressed = entry.target == .token(token) || entry.target == .fid(token)
            guard addressed || found.contains(where: { $0.token == token }) else { return false }
        }
        if let state = filter.state, !found.contains(where: { $0.state == state }) { return false }
        return true
    }
}
