// libFuzzer target for the APNs provider API's request checks (docs/apns.md, "What is checked, in
// order"): the device token from the path, the `apns-*` headers, the payload, and the push's way
// into a device queue. The input is a flags byte (bit 0: the topic is required, as under token
// authentication), then lines: the device token, the headers as `name:value` up to an empty line,
// and the body after it.
//
// Every request must get the reason that a plain reading of the table gives (written out below,
// rule by rule, without the shortcuts of `APNsRequest`), and a request that passes must keep its
// headers in order. The payload check must agree with the JSON parser and the size limits. A
// push that passes everything is sent, in lenient token mode, to a device it registers; that
// device must then receive it once, with the payload and headers as sent and the generated
// `apns-id` after them, unless `apns-expiration` kept it from being stored.
// Built by scripts/fuzz.sh apns-request with swiftc directly, beside the PushCore sources.

import ByteCoding

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNsRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let flags = input.first else { return 0 }
    let requiresTopic = flags & 1 == 1
    var lines = input.dropFirst().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
    guard let tokenLine = lines.popFirst() else { return 0 }
    let token = String(decoding: tokenLine, as: UTF8.self)
    var fields: [HeaderField] = []
    while let line = lines.popFirst(), !line.isEmpty {
        // Names come lowercase from both parsers (HTTP/2 requires it, HTTP/1 lowers them).
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        fields.append(HeaderField(lowercaseName: name, String(decoding: line[(colon + 1)...], as: UTF8.self)))
    }
    let body = Array(lines.joined(separator: [UInt8(ascii: "\n")]))

    let expected = PlainRules.reason(token: token, fields: fields, requiresTopic: requiresTopic)
    var request: APNsRequest
    do {
        request = try APNsRequest(deviceToken: token, headers: fields, requiresTopic: requiresTopic)
    } catch {
        precondition(error == expected, "\(error) where the table says \(String(describing: expected))")
        return 0
    }
    precondition(expected == nil, "accepted where the table says \(expected!)")
    precondition(request.deviceToken == token.lowercased(), "the token is not kept in lowercase")
    precondition(request.headers == fields.filter { $0.name.utf8.starts(with: "apns-".utf8) }, "the apns-* headers changed")

    // The payload: a JSON object by the parser's reading, within the push type's limit.
    let hadPushType = request.hasPushType
    var payloadReason: APNsReason?
    do { try request.checkPayload(body) } catch { payloadReason = error }
    guard case .object(let parsed)? = try? JSONParser.parse(body) else {
        precondition(payloadReason == .payloadEmpty, "a payload that is no JSON object got \(String(describing: payloadReason))")
        return 0
    }
    if !hadPushType {
        let apsHoldsOnlyContentAvailable: Bool
        if case .object(let aps)? = parsed["aps"] {
            apsHoldsOnlyContentAvailable = aps.members.map(\.key) == ["content-available"]
        } else {
            apsHoldsOnlyContentAvailable = false
        }
        precondition((request.pushType == .background) == apsHoldsOnlyContentAvailable, "the push type taken is \(request.pushType)")
    }
    let limit = request.pushType == .voip ? 5120 : 4096
    precondition((payloadReason == .payloadTooLarge) == (body.count > limit), "size \(body.count) got \(String(describing: payloadReason))")
    guard payloadReason == nil else { return 0 }

    // Into a queue: lenient token mode registers a device for the unknown token.
    let core = PushEmulatorCore(wallTime: { 1_795_341_600_000 }, random: SeededRandomNumberGenerator(seed: 1))
    guard case .success(let recipient) = core.apnsRecipient(deviceToken: request.deviceToken, bundleID: request.bundleID, defaultProject: "apns")
    else { preconditionFailure("an empty emulator has no device to refuse") }
    let checked = request
    let outcome = core.send(
        project: recipient.project, target: .apnsToken(request.deviceToken), origin: .apns, requestBody: body,
        implicitBundleID: request.bundleID, knownDevice: recipient.device
    ) { (context: DeliveryContext) -> Result<DeliveryContent?, APNsReason> in
        .success(checked.notification(payload: body, context: context))
    }
    guard case .accepted = outcome else { preconditionFailure("a checked push was not accepted: \(outcome)") }
    let devices = (try? core.devices(project: recipient.project).items) ?? []
    guard let device = devices.first(where: { $0.apnsToken == request.deviceToken }) else {
        preconditionFailure("no device has the push's token")
    }
    guard case .success(let events) = core.connect(project: recipient.project, token: device.token) else {
        preconditionFailure("the registered device cannot connect")
    }
    let expiration = fields.first { $0.name == "apns-expiration" }?.value
    guard expiration == nil || events.count == 1 else { return 0 }  // expired or now-or-never: not stored
    precondition(events.count == 1, "\(events.count) events for one push")
    guard case .notification(let event) = events[0] else { preconditionFailure("the device got \(events[0])") }
    precondition(event.payload == parsed, "the payload changed on its way")
    var sent = request.headers
    if request.topic == nil {
        // The device's bundle id, in the place of an empty `apns-topic`, or last.
        let bundleTopic = HeaderField(lowercaseName: "apns-topic", device.bundleID)
        if let empty = sent.firstIndex(where: { $0.name == "apns-topic" }) { sent[empty] = bundleTopic } else { sent.append(bundleTopic) }
    }
    precondition(Set(event.headers.map(\.name)).count == event.headers.count, "a header name twice: \(event.headers)")
    if request.apnsID == nil {
        precondition(event.headers.count == sent.count + 1 && event.headers.last?.name == "apns-id", "no generated apns-id last")
        precondition(Array(event.headers.dropLast()) == sent, "the headers changed on their way")
    } else {
        precondition(event.headers == sent, "the headers changed on their way")
    }
    return 0
}

/// docs/apns.md's table, rule by rule and in its order, for the path and the headers.
private enum PlainRules {
    static let documented: Set<String> = [
        "authorization", "apns-id", "apns-topic", "apns-priority", "apns-push-type", "apns-expiration", "apns-collapse-id",
    ]
    /// The suffix each push type's topic needs.
    static let suffixes: [String: String] = [
        "voip": ".voip", "complication": ".complication", "fileprovider": ".pushkit.fileprovider",
        "liveactivity": ".push-type.liveactivity", "location": ".location-query", "pushtotalk": ".voip-ptt",
        "widgets": ".push-type.widgets", "controls": ".push-type.controls",
    ]
    /// The priorities a push type may have, where not all three.
    static let priorities: [String: Set<String>] = [
        "background": ["5"], "location": ["10", "5"], "liveactivity": ["10", "5"], "pushtotalk": ["10"],
    ]
    static let pushTypes: Set<String> = [
        "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk",
        "widgets", "controls",
    ]

    static func reason(token: String, fields: [HeaderField], requiresTopic: Bool) -> APNsReason? {
        let counted = fields.map(\.name).filter { documented.contains($0) || $0.utf8.starts(with: "apns-".utf8) }
        if Set(counted).count != counted.count { return .duplicateHeaders }
        func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }
        if let id = value("apns-id"), !isCanonicalUUID(id) { return .badMessageId }
        let topic = value("apns-topic")
        if requiresTopic, topic == nil || topic == "" { return .missingTopic }
        if let topic, topic != "", !isBundleID(topic) { return .badTopic }
        if let collapseID = value("apns-collapse-id"), collapseID.utf8.count > 64 { return .badCollapseId }
        let priority = value("apns-priority")
        if let priority, !["10", "5", "1"].contains(priority) { return .badPriority }
        if let expiration = value("apns-expiration"), !(isDigits(expiration) && Int64(expiration) != nil) {
            return .badExpirationDate
        }
        if let pushType = value("apns-push-type") {
            guard pushTypes.contains(pushType) else { return .invalidPushType }
            if let priority, let allowed = priorities[pushType], !allowed.contains(priority) { return .badPriority }
            if let topic, let suffix = suffixes[pushType], !topic.hasSuffix(suffix) { return .invalidPushType }
        }
        if token.isEmpty { return .missingDeviceToken }
        let count = token.utf8.count
        guard count >= 2, count <= 512, count % 2 == 0, token.utf8.allSatisfy(\.isHexDigit) else { return .badDeviceToken }
        return nil
    }

    static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            let isDash = [8, 13, 18, 23].contains(position)
            guard isDash ? byte == UInt8(ascii: "-") : byte.isHexDigit else { return false }
        }
        return true
    }

    static let bundleIDBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_".utf8)

    static func isBundleID(_ topic: String) -> Bool {
        topic.utf8.count <= 255 && !topic.hasPrefix(".") && !topic.hasSuffix(".") && topic.utf8.allSatisfy(bundleIDBytes.contains)
    }

    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
