import ByteCoding

/// A provider API request whose path and headers passed Apple's checks: what the emulator
/// needs to find the device and queue the notification. Checks run in the order of
/// docs/apns.md ("What is checked"): headers and path here, the provider token next, the
/// payload (`checkPayload`) last.
public struct APNsRequest: Sendable {
    /// The device token from the path, lowercase.
    public let deviceToken: String
    /// `apns-topic`, or nil when it may be left out (`--apns-auth off`).
    public let topic: String?
    /// `apns-push-type`, or what a request without one is taken for: `background` for a payload
    /// whose `aps` has only `content-available`, else `alert` (read in `checkPayload`).
    public private(set) var pushType: APNsPushType
    /// Whether the request named its push type.
    public let hasPushType: Bool
    /// `apns-id` exactly as sent, if it was.
    public let apnsID: String?
    /// The `apns-*` headers as sent (names lowercase), in order: what the device receives.
    public let headers: [HeaderField]

    /// The most bytes of `apns-collapse-id`.
    public static let collapseIDByteLimit = 64

    /// Checks the device token from the path and the request's `apns-*` headers (any others,
    /// `authorization` among them, may be passed too: only repeats of these count).
    /// - Parameter requiresTopic: token authentication needs `apns-topic` (MissingTopic).
    public init(deviceToken: String, headers fields: [HeaderField], requiresTopic: Bool) throws(APNsReason) {
        try self.init(deviceToken: deviceToken, headers: APNsRequestHeaders(fields), requiresTopic: requiresTopic)
    }

    /// Checks the device token from the path and the request's headers, read into `given`.
    /// - Parameter requiresTopic: token authentication needs `apns-topic` (MissingTopic).
    public init(deviceToken: String, headers given: consuming APNsRequestHeaders, requiresTopic: Bool) throws(APNsReason) {
        guard !given.hasDuplicate else { throw .duplicateHeaders }
        let (apnsID, topic, collapseID, priority, expiration, givenType) =
            (given.id, given.topic, given.collapseID, given.priority, given.expiration, given.pushType)
        if let apnsID, !Self.isCanonicalUUID(apnsID) { throw .badMessageId }
        if requiresTopic, topic?.isEmpty ?? true { throw .missingTopic }
        if let topic, !topic.isEmpty, !Self.isTopic(topic) { throw .badTopic }
        if let collapseID, collapseID.utf8.count > Self.collapseIDByteLimit { throw .badCollapseId }
        if let priority, priority != "10", priority != "5", priority != "1" { throw .badPriority }
        // `Int64(_:)` alone would take a sign.
        if let expiration,
            expiration.utf8.first == UInt8(ascii: "+") || expiration.utf8.first == UInt8(ascii: "-") || Int64(expiration) == nil
        {
            throw .badExpirationDate
        }
        var pushType = APNsPushType.alert
        if let givenType {
            guard let type = APNsPushType(rawValue: givenType) else { throw .invalidPushType }
            pushType = type
            if let priority, let value = Int(priority), !type.allows(priority: value) { throw .badPriority }
            // A topic without the suffix its push type needs names no app that may get such pushes.
            if let topic, type != .mdm, !type.topicSuffix.isEmpty, !topic.hasSuffix(type.topicSuffix) {
                throw .invalidPushType
            }
        }
        guard !deviceToken.isEmpty else { throw .missingDeviceToken }
        guard APNsDeviceToken.isWellFormed(deviceToken) else { throw .badDeviceToken }
        self.deviceToken = APNsDeviceToken.normalized(deviceToken)
        self.topic = topic.flatMap { $0.isEmpty ? nil : $0 }
        self.pushType = pushType
        self.hasPushType = givenType != nil
        self.apnsID = apnsID
        self.headers = given.fields
    }

    /// The bundle id the topic names: the topic without its push type's suffix (nil without a topic).
    public var bundleID: String? {
        guard let topic else { return nil }
        let suffix = pushType == .mdm ? "" : pushType.topicSuffix
        guard !suffix.isEmpty, topic.hasSuffix(suffix) else { return topic }
        return String(topic.dropLast(suffix.count))
    }

    /// Checks the body: a JSON object (PayloadEmpty when there is none — Apple names no reason
    /// for malformed JSON) of at most 4096 bytes, 5120 for VoIP (PayloadTooLarge). A request
    /// without a push type becomes a `background` one when `aps` holds only `content-available`.
    public mutating func checkPayload(_ body: [UInt8]) throws(APNsReason) {
        // The payload is kept as the bytes it came in: with the push type given, it is only
        // checked, without the tree a parse builds and frees.
        if hasPushType {
            switch JSONValidator.check(body) {
            case .object: break
            case .otherValue, .invalid: throw .payloadEmpty
            case .undecided:
                guard case .object? = try? JSONParser.parse(body) else { throw .payloadEmpty }
            }
        } else {
            guard case .object(let payload)? = try? JSONParser.parse(body) else { throw .payloadEmpty }
            if case .object(let aps)? = payload["aps"], aps.members.count == 1, aps.members[0].key == "content-available" {
                pushType = .background
            }
        }
        if !ApplePayloadLimit.fits(byteCount: body.count, pushType: pushType.rawValue) { throw .payloadTooLarge }
    }

    /// `8-4-4-4-12` hex digits, any case: an `apns-id` Apple takes (and echoes).
    public static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = text.utf8.span
        guard bytes.count == 36 else { return false }
        for index in bytes.indices {
            let isDash = index == 8 || index == 13 || index == 18 || index == 23
            guard isDash ? bytes[index] == UInt8(ascii: "-") : bytes[index].isHexDigit else { return false }
        }
        return true
    }

    /// A bundle id (and suffix): letters, digits, `.`, `-` and `_`, no leading or trailing dot.
    static func isTopic(_ topic: String) -> Bool {
        let bytes = topic.utf8.span
        guard bytes.count <= 255 else { return false }
        if !bytes.isEmpty, bytes[0] == UInt8(ascii: ".") || bytes[bytes.count - 1] == UInt8(ascii: ".") { return false }
        for index in bytes.indices where !isTopicByte(bytes[index]) { return false }
        return true
    }

    private static func isTopicByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}

extension APNsRequest {
    /// What the device receives: the `apns-*` headers as sent — with the device's bundle id as
    /// `apns-topic` when the request had none (`--apns-auth off`), and the generated `apns-id`
    /// when it had none — and the payload as sent.
    public func notification(payload: [UInt8], context: DeliveryContext) -> APNsNotification {
        var fields = headers
        if topic == nil {
            let bundleTopic = HeaderField(lowercaseName: "apns-topic", context.bundleID)
            // An empty `apns-topic` (let through under `--apns-auth off`) gives way to it: the
            // device's headers are a JSON object, where a name may appear once.
            if let empty = fields.firstIndex(where: { $0.name == "apns-topic" }) {
                fields[empty] = bundleTopic
            } else {
                fields.append(bundleTopic)
            }
        }
        guard apnsID == nil else { return APNsNotification(headers: fields, payloadBytes: payload) }
        return APNsNotification(
            fields: fields, generatedID: context.generatedAPNsID, at: fields.count, payloadBytes: payload)
    }
}
