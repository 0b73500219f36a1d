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
        let uninstalled = uninstalledTokens.sorted { $0.key < $1.key }.map { token, at in
            JSONValue.object(JSONObject([
                JSONObject.Member(key: "token", value: .string(token)),
                JSONObject.Member(key: "uninstalledAt", value: .string(at.rfc3339)),
                JSONObject.Member(
                    key: "messageLogSequences",
                    value: .array((messageLogSequencesOfUninstalled[token].map(Array.init) ?? []).map(number))),
            ]))
        }
        let uninstalledAPNs = uninstalledAPNsTokens.sorted { $0.key < $1.key }.map { apnsToken, at in
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

        var lastNumber = 0
        for delivery in try reader.objects("deliveries", keys: Delivery.snapshotKeys) {
            let read = try Delivery(snapshot: delivery)
            guard read.number > lastNumber else {
                throw delivery.error("number", "deliveries are listed in increasing number; \(read.number) follows \(lastNumber)")
            }
            lastNumber = read.number
            deliveries.append(read)
        }

        for topic in try reader.objects("topics", keys: ["name", "createdAt", "sequence"]) {
            let name = try topic.string("name")
            guard TopicLimits.isValidName(name) else { throw topic.error("name", "is not a valid topic name") }
            guard topics[name] == nil else { throw topic.error("name", "topic \(name) is listed twice") }
            let sequence = try topic.int("sequence", atLeast: 1)
            topics[name] = TopicRecord(name: name, createdAt: try topic.timestamp("createdAt"), sequence: sequence)
        }
        nextTopicSequence = try next.int("topicSequence", atLeast: 1)
        if let highest = topics.values.map(\.sequence).max(), highest >= nextTopicSequence {
            throw next.error("topicSequence", "must be above every topic's sequence (\(highest))")
        }

        var highestSubscription = 0
        var deviceSequences = Set<Int>()
        for entry in try reader.objects("devices", keys: Device.snapshotKeys) {
            let device = try Device(snapshot: entry, deliveries: deliveries)
            guard devices[device.token] == nil else { throw entry.error("token", "two devices have the token \(device.token)") }
            if let apnsToken = device.apnsToken, tokenByAPNsToken[apnsToken] != nil {
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
                highestSubscription = max(highestSubscription, subscription.sequence)
            }
            for number in device.pendingDeliveryNumbers {
                expiries.insert(PendingExpiry(expiresAt: deliveries[number]!.expiresAt, number: number))
            }
        }
        nextDeviceSequence = try next.int("deviceSequence", atLeast: 1)
        if let highest = devices.values.map(\.sequence).max(), highest >= nextDeviceSequence {
            throw next.error("deviceSequence", "must be above every device's sequence (\(highest))")
        }
        nextSubscriptionSequence = try next.int("subscriptionSequence", atLeast: 1)
        guard highestSubscription < nextSubscriptionSequence else {
            throw next.error("subscriptionSequence", "must be above every subscription's sequence (\(highestSubscription))")
        }

        for entry in try reader.objects("uninstalledTokens", keys: ["token", "uninstalledAt", "messageLogSequences"]) {
            let token = try entry.string("token")
            guard devices[token] == nil, uninstalledTokens[token] == nil else {
                throw entry.error("token", "\(token) is listed twice, or is also a registered device")
            }
            uninstalledTokens[token] = try entry.timestamp("uninstalledAt")
            let sequences = try entry.increasingInts("messageLogSequences")
            if !sequences.isEmpty {
                var kept = ChunkedArray<Int>()
                for sequence in sequences { kept.append(sequence) }
                messageLogSequencesOfUninstalled[token] = kept
            }
        }
        for entry in try reader.objects("uninstalledApnsTokens", keys: ["apnsToken", "uninstalledAt"]) {
            let apnsToken = try entry.string("apnsToken")
            guard tokenByAPNsToken[apnsToken] == nil, uninstalledAPNsTokens[apnsToken] == nil else {
                throw entry.error("apnsToken", "\(apnsToken) is listed twice, or belongs to a registered device")
            }
            uninstalledAPNsTokens[apnsToken] = try entry.timestamp("uninstalledAt")
        }

        var entries = [MessageLog.Entry]()
        for entry in try reader.objects("messageLog", keys: MessageLog.Entry.snapshotKeys) {
            let read = try MessageLog.Entry(snapshot: entry)
            if let last = entries.last, read.sequence <= last.sequence {
                throw entry.error("sequence", "entries are listed in increasing sequence; \(read.sequence) follows \(last.sequence)")
            }
            entries.append(read)
        }
        let nextLogSequence = try next.int("logSequence", atLeast: 1)
        if let last = entries.last, last.sequence >= nextLogSequence {
            throw next.error("logSequence", "must be above every entry's sequence (\(last.sequence))")
        }
        // The devices' lists of log entries grow with later sends: they must stay in order.
        for device in devices.values {
            if let last = device.messageLogSequences.last, last >= nextLogSequence {
                throw next.error("logSequence", "must be above every device's messageLogSequences (\(last) of \(device.token))")
            }
        }
        log = MessageLog(restoring: entries, nextSequence: nextLogSequence)

        var restoredFaults = [Fault]()
        for entry in try reader.objects("faults", keys: Fault.snapshotKeys) {
            let fault = try Fault(snapshot: entry)
            if let last = restoredFaults.last, fault.id <= last.id {
                throw entry.error("id", "faults are listed in increasing id; \(fault.id) follows \(last.id)")
            }
            restoredFaults.append(fault)
        }
        let nextFaultID = try next.int("faultId", atLeast: 1)
        if let last = restoredFaults.last, last.id >= nextFaultID {
            throw next.error("faultId", "must be above every fault's id (\(last.id))")
        }
        faults = FaultTable(restoring: restoredFaults, nextID: nextFaultID)
    }
}
