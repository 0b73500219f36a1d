import ByteCoding

extension Device {
    static let snapshotKeys: Set<String> = [
        "token", "apnsToken", "platform", "bundleId", "appState", "registeredAt", "lastConnectedAt", "sequence",
        "subscriptions", "pendingDeliveries", "messageLogSequences", "owedMessagesDeleted",
        "notificationServiceExtension", "channels", "backgroundHandler", "apnsEnvironment", "unregisterAfter",
    ]

    /// The device in a state snapshot. Connections are not part of one: deliveries on their way
    /// to an open stream are written as pending, and a connected device as if its stream closed
    /// at `now`, which is what an import makes of it (an offline device).
    func snapshot(at now: Timestamp) -> JSONValue {
        let pending = (Array(pendingDeliveryNumbers) + handedOver.keys).sorted()
        let lastConnected = isConnected ? now : lastConnectedAt
        return .object(JSONObject([
            JSONObject.Member(key: "token", value: .string(token)),
            JSONObject.Member(key: "apnsToken", value: apnsToken.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "platform", value: .string(platform.rawValue)),
            JSONObject.Member(key: "bundleId", value: .string(bundleID)),
            JSONObject.Member(key: "appState", value: .string(appState.rawValue)),
            JSONObject.Member(key: "notificationServiceExtension", value: .bool(hasNotificationServiceExtension)),
            JSONObject.Member(key: "channels", value: androidChannels.map { .array($0.map(JSONValue.string)) } ?? .null),
            JSONObject.Member(key: "backgroundHandler", value: .bool(hasBackgroundHandler)),
            JSONObject.Member(key: "apnsEnvironment", value: apnsEnvironment.map { .string($0.rawValue) } ?? .null),
            JSONObject.Member(key: "unregisterAfter", value: unregisterAfterSeconds.map { .number(String($0)) } ?? .null),
            JSONObject.Member(key: "registeredAt", value: .string(registeredAt.rfc3339)),
            JSONObject.Member(key: "lastConnectedAt", value: lastConnected.map { .string($0.rfc3339) } ?? .null),
            JSONObject.Member(key: "sequence", value: .number(String(sequence))),
            JSONObject.Member(
                key: "subscriptions",
                value: .array(subscriptions.values.sorted { $0.sequence < $1.sequence }.map { subscription in
                    .object(JSONObject([
                        JSONObject.Member(key: "topic", value: .string(subscription.topic)),
                        JSONObject.Member(key: "createdAt", value: .string(subscription.createdAt.rfc3339)),
                        JSONObject.Member(key: "sequence", value: .number(String(subscription.sequence))),
                    ]))
                })),
            JSONObject.Member(key: "pendingDeliveries", value: .array(pending.map { .number(String($0)) })),
            JSONObject.Member(key: "messageLogSequences", value: .array(messageLogSequences.map { .number(String($0)) })),
            JSONObject.Member(
                key: "owedMessagesDeleted",
                value: owedDeletion.map { owed in
                    .object(JSONObject([
                        JSONObject.Member(key: "reason", value: .string(owed.reason.rawValue)),
                        JSONObject.Member(key: "count", value: .number(String(owed.count))),
                    ]))
                } ?? .null),
        ]))
    }

    /// Reads a device of a state snapshot (offline); `deliveries` are its project's, to check its
    /// pending queue against.
    init(snapshot reader: SnapshotReader, deliveries: DeliveryStore) throws(SnapshotError) {
        let token = try reader.registrationToken("token")
        let apnsToken = try reader.optionalAPNsToken("apnsToken")
        self.init(
            platform: try reader.named("platform", Platform.self), bundleID: try reader.string("bundleId"), token: token,
            apnsToken: apnsToken, appState: try reader.named("appState", AppState.self),
            registeredAt: try reader.timestamp("registeredAt"), sequence: try reader.int("sequence", atLeast: 1))
        lastConnectedAt = try reader.optionalTimestamp("lastConnectedAt")
        // Snapshots written before the setting existed leave it out: on, its default.
        hasNotificationServiceExtension = try reader.optionalBool("notificationServiceExtension") ?? true
        // Version 3's settings of Android and web apps; earlier snapshots hold Apple devices only.
        if let channels = reader.optionalValue("channels"), channels != .null {
            androidChannels = try reader.array("channels").enumerated().map { index, value throws(SnapshotError) in
                try SnapshotReader.string(value, path: "\(reader.path("channels"))[\(index)]")
            }
        }
        hasBackgroundHandler = try reader.optionalBool("backgroundHandler") ?? true
        if let seconds = reader.optionalValue("unregisterAfter"), seconds != .null {
            let seconds = Int64(try reader.int("unregisterAfter"))
            guard seconds <= Device.longestUnregisterAfter else {
                throw reader.error("unregisterAfter", "must be at most \(Device.longestUnregisterAfter) seconds (100 years)")
            }
            unregisterAfterSeconds = seconds
        }
        if let environment = reader.optionalValue("apnsEnvironment"), environment != .null {
            apnsEnvironment = try reader.named("apnsEnvironment", APNsEnvironment.self)
        }
        for entry in try reader.objects("subscriptions", keys: ["topic", "createdAt", "sequence"]) {
            let topic = try entry.string("topic")
            guard TopicLimits.isValidName(topic) else { throw entry.error("topic", "is not a valid topic name") }
            guard subscriptions[topic] == nil else { throw entry.error("topic", "the device is subscribed to \(topic) twice") }
            subscriptions[topic] = TopicSubscription(
                registration: token, topic: topic, createdAt: try entry.timestamp("createdAt"),
                sequence: try entry.int("sequence", atLeast: 1))
        }
        let pending = try reader.increasingInts("pendingDeliveries")
        for (index, number) in pending.enumerated() {
            let path = "\(reader.path("pendingDeliveries"))[\(index)]"
            guard let delivery = deliveries[number] else { throw SnapshotError(path: path, "no delivery \(number) in the project") }
            guard delivery.token == token, delivery.state == .pending else {
                throw SnapshotError(path: path, "delivery \(number) is not a pending delivery to this device")
            }
            // An Android or web message waits only for a device of its platform. (A device of an
            // earlier version may hold Apple deliveries whatever its platform: they were made so.)
            if let message = delivery.platformMessage, message.platform != platform {
                throw SnapshotError(path: path, "delivery \(number) is a \(message.platform.rawValue) message; the device is \(platform.rawValue)")
            }
            pendingDeliveryNumbers.append(number)
        }
        for number in try reader.increasingInts("messageLogSequences") { messageLogSequences.append(number) }
        if let owed = try reader.optionalObject("owedMessagesDeleted", keys: ["reason", "count"]) {
            owedDeletion = OwedDeletion(reason: try owed.named("reason", DeletionReason.self), count: try owed.int("count", atLeast: 1))
        }
    }
}
