import ByteCoding

extension Delivery {
    static let snapshotKeys: Set<String> = [
        "number", "messageName", "token", "origin", "expiresAt", "nowOrNever", "headers", "payload",
        "presentedAppState", "history", "android", "web",
    ]

    /// The delivery in a state snapshot: everything it holds. The payload is its exact text, as a
    /// string: an APNs sender's spacing counts towards the size limit and is kept. The history's
    /// first entry (`pending`, when it was accepted) is its `enqueuedAt`.
    var snapshot: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "number", value: .number(String(number))),
            JSONObject.Member(key: "messageName", value: .string(messageName.text)),
            JSONObject.Member(key: "token", value: .string(token)),
            JSONObject.Member(key: "origin", value: .string(origin.rawValue)),
            JSONObject.Member(key: "expiresAt", value: .string(expiresAt.rfc3339)),
            JSONObject.Member(key: "nowOrNever", value: .bool(isNowOrNever)),
            JSONObject.Member(
                key: "headers",
                value: .array(notification.headers.map { field in
                    .object(JSONObject([
                        JSONObject.Member(key: "name", value: .string(field.name)),
                        JSONObject.Member(key: "value", value: .string(field.value)),
                    ]))
                })),
            JSONObject.Member(key: "payload", value: .string(String(decoding: notification.payloadBytes, as: UTF8.self))),
            JSONObject.Member(key: "presentedAppState", value: .string(presentedAppState.rawValue)),
            JSONObject.Member(key: "history", value: .array(history.map(\.json))),
        ] + (platformMessage.map { [$0.snapshotMember] } ?? [])))
    }

    /// Reads a delivery of a state snapshot.
    init(snapshot reader: SnapshotReader) throws(SnapshotError) {
        var headers = [HeaderField]()
        for field in try reader.objects("headers", keys: ["name", "value"]) {
            let name = try field.string("name")
            guard !name.isEmpty, HeaderField.lowercased(name) == name else {
                throw field.error("name", "must be a lowercase header name")
            }
            headers.append(HeaderField(lowercaseName: name, try field.string("value")))
        }
        let payloadText = try reader.string("payload")
        // An Android or web device's delivery has no APNs payload: an empty text.
        let platformMessage = try PlatformMessage(snapshotOf: reader)
        if platformMessage != nil, try reader.named("origin", DeliveryOrigin.self) != .fcm {
            throw reader.error("origin", "an Android or web delivery comes from FCM")
        }
        let isPayload =
            platformMessage == nil
            ? (try? JSONParser.parse(payloadText))?.objectValue != nil : payloadText.isEmpty && headers.isEmpty
        guard isPayload else {
            throw reader.error(
                "payload", "must be the text of a JSON object (or, with headers empty, \"\" for an Android or web delivery)")
        }
        var transitions = [DeliveryTransition]()
        for entry in try reader.objects("history", keys: ["state", "at", "reason"]) {
            let transition = DeliveryTransition(
                state: try entry.named("state", DeliveryState.self), at: try entry.timestamp("at"),
                reason: try entry.optionalString("reason"))
            if transitions.isEmpty, transition.state != .pending {
                throw entry.error("state", "the first entry of a history is pending (when the delivery was accepted)")
            }
            if !transitions.isEmpty, transitions.last?.state != .pending {
                throw entry.error("state", "only a pending delivery changes state; the entry before is \(transitions.last!.state.rawValue)")
            }
            transitions.append(transition)
        }
        guard let accepted = transitions.first else { throw reader.error("history", "must hold at least the pending entry") }
        let number = try reader.int("number", atLeast: 1)
        let token = try reader.string("token")
        guard let messageName = MessageName(parsing: try reader.string("messageName")) else {
            throw reader.error("messageName", "must be projects/{project}/messages/{id}, the id a decimal number")
        }
        self.init(
            number: number, messageName: messageName, token: token,
            origin: try reader.named("origin", DeliveryOrigin.self), enqueuedAt: accepted.at,
            expiresAt: try reader.timestamp("expiresAt"), isNowOrNever: try reader.bool("nowOrNever"),
            hasCollapseID: platformMessage.map { $0.collapseKey != nil } ?? headers.contains { $0.name == "apns-collapse-id" },
            notification: APNsNotification(headers: headers, payloadBytes: Array(payloadText.utf8)),
            platformMessage: platformMessage,
            presentedAppState: try reader.named("presentedAppState", AppState.self),
            laterTransitions: Array(transitions.dropFirst()))
    }
}
