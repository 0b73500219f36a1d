/// Converts an FCM message into the APNs request an Apple device would get (§3 of the spec).
public enum AppleConversion {
    /// How long FCM keeps a message when `apns-expiration` is not given: 30 days.
    public static let defaultExpirationSeconds: Int64 = 30 * 86_400

    /// The headers and payload for `input`. The size check is separate
    /// (`ApplePayloadLimit`), because it needs the serialized payload.
    public static func convert(_ input: AppleConversionInput) -> APNsNotification {
        let payload = ApplePayload(input)
        let (headers, generatedIDPosition) = makeHeaders(input, showsSomething: payload.isUserVisible)
        if let generatedIDPosition, case .generated(let uuid) = input.defaultAPNsID {
            return APNsNotification(fields: headers, generatedID: uuid, at: generatedIDPosition, payloadBytes: payload.bytes)
        }
        return APNsNotification(headers: headers, payloadBytes: payload.bytes)
    }

    /// Known headers in the order of the spec's event example, then any others as given (of a
    /// header given twice, the first counts). A generated `apns-id` is left out, and its position
    /// returned: the notification keeps it as bits.
    private static func makeHeaders(
        _ input: AppleConversionInput, showsSomething: Bool
    ) -> (headers: [HeaderField], generatedIDPosition: Int?) {
        var pushType, priority, topic, expiration, collapseID, apnsID: String?
        var others = [HeaderField]()
        /// Takes the value of a known header; false for any other name.
        func take(_ name: String, _ value: String) -> Bool {
            switch name {
            case "apns-push-type": pushType = pushType ?? value
            case "apns-priority": priority = priority ?? value
            case "apns-topic": topic = topic ?? value
            case "apns-expiration": expiration = expiration ?? value
            case "apns-collapse-id": collapseID = collapseID ?? value
            case "apns-id": apnsID = apnsID ?? value
            default: return false
            }
            return true
        }
        for field in input.apnsHeaders where !take(field.key, field.value) {
            // Names come as sent, nearly always lowercase: only a name that is none of the known
            // ones as given pays for the check for capitals.
            let name = HeaderField.lowercased(field.key)
            if name != field.key, take(name, field.value) { continue }
            others.append(HeaderField(lowercaseName: name, field.value))
        }
        let resolvedPushType = pushType ?? (showsSomething ? "alert" : "background")
        var headers = [HeaderField]()
        headers.reserveCapacity(6 + others.count)
        headers.append(HeaderField(lowercaseName: "apns-push-type", resolvedPushType))
        headers.append(HeaderField(lowercaseName: "apns-priority", priority ?? (showsSomething ? "10" : "5")))
        headers.append(
            HeaderField(
                lowercaseName: "apns-topic",
                topic ?? APNsTopic.forBundleID(input.bundleID, pushType: resolvedPushType)))
        headers.append(
            HeaderField(
                lowercaseName: "apns-expiration",
                expiration ?? String.decimal(input.now.secondsSinceEpoch + defaultExpirationSeconds)))
        if let collapseID { headers.append(HeaderField(lowercaseName: "apns-collapse-id", collapseID)) }
        var generatedIDPosition: Int?
        switch (apnsID, input.defaultAPNsID) {
        case (let given?, _), (nil, .given(let given)):
            headers.append(HeaderField(lowercaseName: "apns-id", given))
        case (nil, .generated):
            generatedIDPosition = headers.count
        }
        if !others.isEmpty { headers.append(contentsOf: others) }
        return (headers, generatedIDPosition)
    }
}
