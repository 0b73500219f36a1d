import ByteCoding

extension ProjectState {
    static let snapshotKeys: Set<String> = [
        "projectId", "devices", "uninstalledTokens", "uninstalledApnsTokens", "topics", "deliveries", "messageLog",
        "faults", "next",
    ]
    static let nextKeys: Set<String> = ["deviceSequence", "topicSequence", "subscriptionSequence", "logSequence", "faultId"]

    /// The project in a state snapshot, everything in a fixed order (devices by registration,
    /// deliveries by number, ...), so that equal states give equal snapshots. Open streams are left out.
    func snapshot(at now: Timestamp) -> JSONValue {
        func number(_ value: Int) -> JSONValue { .number(String(value)) }
        var uninstalledEntries = [(token: String, value: Timestamp)]()
        var uninstalledAPNsEntries = [(token: String, value: Timestamp)]()
        for index in shards.indices {
            uninstalledEntries += shards[index].uninstalledTokens.entries
            uninstalledAPNsEntries += shards[index].uninstalledAPNsTokens.entries
        }
        let uninstalled = uninstalledEntries.sorted { $0.token < $1.token }.map { token, at in
            JSONValue.object(JSONObject([
                JSONObject.Member(key: "token", value: .string(token)),
                JSONObject.Member(key: "uninstalledAt", value: .string(at.rfc3339)),
                JSONObject.Member(
                    key: "messageLogSequences",
                    value: .array(Array(messageLogSequences(of: token)).map(number))),
            ]))
        }
        let uninstalledAPNs = uninstalledAPNsEntries.sorted { $0.token < $1.token }.map { apnsToken, at in
            JSONValue.object(JSONObject([
                JSONObject.Member(key: "apnsToken", value: .string(apnsToken)),
                JSONObject.Member(key: "uninstalledAt", value: .string(at.rfc3339)),
            ]))
        }
        let topicRecords = topics.values.sorted { $0.sequence < $1.sequence }.map { record in
            JSONValue.object(JSONObject([
                JSONObject.Member(key: "name", value: .string(record.name)),
                JSONObject.Member(key: "createdAt", value: .string(record.createdAt.rfc3339)),
                JSONObject.Member(key: "sequence", value: number(record.sequence)),
            ]))
        }
        return .object(JSONObject([
            JSONObject.Member(key: "projectId", value: .string(projectID)),
            JSONObject.Member(key: "devices", value: .array(devicesInOrder.map { $0.snapshot(at: now) })),
            JSONObject.Member(key: "uninstalledTokens", value: .array(uninstalled)),
            JSONObject.Member(key: "uninstalledApnsTokens", value: .array(uninstalledAPNs)),
            JSONObject.Member(key: "topics", value: .array(topicRecords)),
            JSONObject.Member(key: "deliveries", value: .array(deliveries.inNumberOrder.map(\.snapshot))),
            JSONObject.Member(key: "messageLog", value: .array(log.allEntries.map(\.snapshot))),
            JSONObject.Member(key: "faults", value: .array(faults.faults.map(\.snapshot))),
            JSONObject.Member(
                key: "next",
                value: .object(JSONObject([
                    JSONObject.Member(key: "deviceSequence", value: number(nextDeviceSequence)),
                    JSONObject.Member(key: "topicSequence", value: number(nextTopicSequence)),
                    JSONObject.Member(key: "subscriptionSequence", value: number(nextSubscriptionSequence)),
                    JSONObject.Member(key: "logSequence", value: number(log.nextSequence)),
                    JSONObject.Member(key: "faultId", value: number(faults.nextFaultID)),
                ]))),
        ]))
    }

    /// Reads a project of a state snapshot, checking that its parts agree (a device's pending
    /// deliveries are its own, subscriptions name known topics, tokens are unique, counters are
    /// above what they numbered), and builds the indexes a project keeps as `insert`,
    /// `subscribe` and `enqueue` build them: the APNs token lookup, topic subscribers, expiries
    /// and the log's topic index.
    init(snapshot reader: SnapshotReader) throws(SnapshotError) {
        let projectID = try reader.string("projectId")
        guard ProjectID.isValid(projectID) else { throw reader.error("projectId", "is not a valid project id") }
        self.init(projectID: projectID)
        let next = try reader.object("next", keys: Self.nextKeys)

        // Read into one store, checked against it, then shared out to the devices' shards.
        var deliveries = DeliveryStore()
        for delivery in try reader.increasing(
            "deliveries", keys: Delivery.snapshotKeys, by: \.number, positionKey: "number", Delivery.init(snapshot:))
        {
            deliveries.append(delivery)
        }

        for topic in try reader.objects("topics", keys: ["name", "createdAt", "sequence"]) {
            let name = try topic.string("name")
            guard TopicLimits.isValidName(name) else { throw topic.error("name", "is not a valid topic name") }
            guard topics[name] == nil else { throw topic.error("name", "topic \(name) is listed twice") }
            let sequence = try topic.int("sequence", atLeast: 1)
            topics[name] = TopicRecord(name: name, createdAt: try topic.timestamp("createdAt"), sequence: sequence)
        }
        nextTopicSequence = try next.counter("topicSequence", above: topics.values.map(\.sequence).max(), of: "topic's sequence")

        var highestSubscription: Int?
        var deviceSequences = Set<Int>()
        var queued = Set<Int>()
        for entry in try reader.objects("devices", keys: Device.snapshotKeys) {
            let device = try Device(snapshot: entry, deliveries: deliveries)
            guard self.device(device.token) == nil else {
                throw entry.error("token", "two devices have the token \(device.token)")
            }
            if let apnsToken = device.apnsToken, shards[DeviceShard.index(of: apnsToken)].tokenByAPNsToken[apnsToken] != nil {
                throw entry.error("apnsToken", "two devices have the APNs token \(apnsToken)")
            }
            guard deviceSequences.insert(device.sequence).inserted else {
                throw entry.error("sequence", "two devices have the sequence \(device.sequence)")
            }
            for topic in device.subscriptions.keys where topics[topic] == nil {
                throw entry.error("subscriptions", "topic \(topic) is not in the project's topics")
            }
            insert(device)
            for (topic, subscription) in device.subscriptions {
                topics[topic]!.subscribers.insert(device.token)
                highestSubscription = max(highestSubscription ?? 0, subscription.sequence)
            }
            for number in device.pendingDeliveryNumbers {
                shards[DeviceShard.index(of: device.token)].expiries.insert(PendingExpiry(expiresAt: deliveries[number]!.expiresAt, number: number))
                queued.insert(number)
            }
        }
        // A pending delivery waits in its device's queue (an uninstall drops it, a connect hands
        // it over): one in no queue would never be delivered, expired or dropped.
        for (index, delivery) in deliveries.inNumberOrder.enumerated() where delivery.state == .pending {
            guard queued.contains(delivery.number) else {
                throw SnapshotError(
                    path: "\(reader.path("deliveries"))[\(index)]",
                    "delivery \(delivery.number) is pending but in no device's pendingDeliveries")
            }
        }
        nextDeviceSequence = try next.counter("deviceSequence", above: deviceSequences.max(), of: "device's sequence")
        nextSubscriptionSequence = try next.counter(
            "subscriptionSequence", above: highestSubscription, of: "subscription's sequence")

        for entry in try reader.objects("uninstalledTokens", keys: ["token", "uninstalledAt", "messageLogSequences"]) {
            let token = try entry.registrationToken("token")
            guard device(token) == nil, uninstalledAt(token) == nil else {
                throw entry.error("token", "\(token) is listed twice, or is also a registered device")
            }
            let shard = DeviceShard.index(of: token)
            shards[shard].uninstalledTokens[token] = try entry.timestamp("uninstalledAt")
            let sequences = try entry.increasingInts("messageLogSequences")
            if !sequences.isEmpty {
                var kept = ChunkedArray<Int>()
                for sequence in sequences { kept.append(sequence) }
                shards[shard].messageLogSequencesOfUninstalled[token] = kept
            }
        }
        for entry in try reader.objects("uninstalledApnsTokens", keys: ["apnsToken", "uninstalledAt"]) {
            let apnsToken = try entry.apnsToken("apnsToken")
            let shard = DeviceShard.index(of: apnsToken)
            guard shards[shard].tokenByAPNsToken[apnsToken] == nil, shards[shard].uninstalledAPNsTokens[apnsToken] == nil else {
                throw entry.error("apnsToken", "\(apnsToken) is listed twice, or belongs to a registered device")
            }
            shards[shard].uninstalledAPNsTokens[apnsToken] = try entry.timestamp("uninstalledAt")
        }

        let entries = try reader.increasing(
            "messageLog", keys: MessageLog.Entry.snapshotKeys, by: \.sequence, positionKey: "sequence",
            MessageLog.Entry.init(snapshot:))
        try Self.checkDeliveryRanges(of: entries, against: deliveries, path: reader.path("messageLog"))
        for delivery in deliveries.inNumberOrder {
            shards[DeviceShard.index(of: delivery.token)].deliveries.append(delivery)
        }
        let nextLogSequence = try next.counter("logSequence", above: entries.last?.sequence, of: "log entry's sequence")
        // The devices' lists of log entries grow with later sends: they must stay in order.
        for device in devicesInOrder {
            if let last = device.messageLogSequences.last, last >= nextLogSequence {
                throw next.error("logSequence", "must be above every device's messageLogSequences (\(last) of \(device.token))")
            }
        }
        log = MessageLog(restoring: entries, nextSequence: nextLogSequence)

        let restoredFaults = try reader.increasing(
            "faults", keys: Fault.snapshotKeys, by: \.id, positionKey: "id", Fault.init(snapshot:))
        guard restoredFaults.count <= FaultTable.maximumCount else {
            throw reader.error("faults", "holds \(restoredFaults.count) faults; a project keeps at most \(FaultTable.maximumCount)")
        }
        let nextFaultID = try next.counter("faultId", above: restoredFaults.last?.id, of: "fault's id")
        faults = FaultTable(restoring: restoredFaults, nextID: nextFaultID)
    }

    /// A send's deliveries are numbered one after another, after every earlier send's: the log's
    /// ranges follow one another without overlapping, and each names stored deliveries of its own
    /// message (a log entry and its deliveries are only ever removed together). An empty range
    /// (a topic nobody had subscribed to) names nothing.
    private static func checkDeliveryRanges(
        of entries: [MessageLog.Entry], against deliveries: DeliveryStore, path: String
    ) throws(SnapshotError) {
        var end = 1
        for (index, entry) in entries.enumerated() where !entry.deliveryNumbers.isEmpty {
            let range = entry.deliveryNumbers
            let entryPath = "\(path)[\(index)]"
            guard range.lowerBound >= end else {
                throw SnapshotError(
                    path: "\(entryPath).firstDeliveryNumber",
                    "deliveries \(range.lowerBound) to \(range.upperBound - 1) overlap an earlier entry's (up to \(end - 1))")
            }
            // Bisected: a range of billions costs what the store holds in it.
            let found = deliveries.deliveries(numbered: range)
            guard found.count == range.count, found.allSatisfy({ $0.messageName == entry.name }) else {
                throw SnapshotError(
                    path: entryPath,
                    "firstDeliveryNumber \(range.lowerBound) and deliveryCount \(range.count) name deliveries that are not"
                        + " all stored deliveries of \(entry.name.text)")
            }
            end = range.upperBound
        }
    }
}
