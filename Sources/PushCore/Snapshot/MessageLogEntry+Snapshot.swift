import ByteCoding

extension MessageLog.Entry {
    static let snapshotKeys: Set<String> = [
        "sequence", "name", "origin", "sentAt", "target", "request", "firstDeliveryNumber", "deliveryCount",
    ]

    /// The entry in a state snapshot; its deliveries are the `deliveryCount` numbered from
    /// `firstDeliveryNumber` (a send's deliveries are numbered one after another).
    var snapshot: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "sequence", value: .number(String(sequence))),
            JSONObject.Member(key: "name", value: .string(name.text)),
            JSONObject.Member(key: "origin", value: .string(origin.rawValue)),
            JSONObject.Member(key: "sentAt", value: .string(sentAt.rfc3339)),
            JSONObject.Member(key: "target", value: target.json),
            JSONObject.Member(key: "request", value: (try? JSONParser.parse(requestBody)) ?? .object(JSONObject())),
            JSONObject.Member(key: "firstDeliveryNumber", value: .number(String(deliveryNumbers.lowerBound))),
            JSONObject.Member(key: "deliveryCount", value: .number(String(deliveryNumbers.count))),
        ]))
    }

    /// Reads an entry of a state snapshot.
    init(snapshot reader: SnapshotReader) throws(SnapshotError) {
        let targetReader = try reader.object("target", keys: ["token", "fid", "apnsToken", "topic", "condition"])
        let targets: [(String, (String) -> MessageTarget)] = [
            ("token", MessageTarget.token), ("fid", MessageTarget.fid), ("apnsToken", MessageTarget.apnsToken),
            ("topic", MessageTarget.topic), ("condition", MessageTarget.condition),
        ]
        var target: MessageTarget?
        for (key, make) in targets {
            guard let value = try targetReader.optionalString(key) else { continue }
            guard target == nil else { throw reader.error("target", "names more than one of token, fid, apnsToken, topic, condition") }
            target = make(value)
        }
        guard let target else { throw reader.error("target", "must name one of token, fid, apnsToken, topic, condition") }
        let request = try reader.value("request")
        guard case .object = request else { throw reader.error("request", "expected an object") }
        let first = try reader.int("firstDeliveryNumber", atLeast: 1)
        let count = try reader.int("deliveryCount")
        guard first <= Int.max - count else { throw reader.error("deliveryCount", "is too large") }
        guard let name = MessageName(parsing: try reader.string("name")) else {
            throw reader.error("name", "must be projects/{project}/messages/{id}, the id a decimal number")
        }
        self.init(
            sequence: try reader.int("sequence", atLeast: 1), name: name, origin: try reader.named("origin", DeliveryOrigin.self),
            sentAt: try reader.timestamp("sentAt"), target: target, requestBody: JSONSerializer.serialize(request),
            deliveryNumbers: first..<(first + count))
    }
}
