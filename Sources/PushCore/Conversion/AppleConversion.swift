import ByteCoding

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
        // Where each known header is in the request, rather than copies of the values: a value
        // is retained once, into the header made of it.
        var pushTypeAt, priorityAt, topicAt, expirationAt, collapseIDAt, apnsIDAt: Int?
        var others = [HeaderField]()
        let given = input.apnsHeaders
        for position in given.indices {
            // Names come as sent, nearly always lowercase: only a name that is none of the known
            // ones as given pays for the check for capitals.
            var known = knownHeader(given[position].key)
            var name: String?
            if known == nil {
                let lowercased = HeaderField.lowercased(given[position].key)
                if lowercased != given[position].key { known = knownHeader(lowercased) }
                name = lowercased
            }
            // Of a header given twice, the first counts.
            switch known {
            case .pushType?: pushTypeAt = pushTypeAt ?? position
            case .priority?: priorityAt = priorityAt ?? position
            case .topic?: topicAt = topicAt ?? position
            case .expiration?: expirationAt = expirationAt ?? position
            case .collapseID?: collapseIDAt = collapseIDAt ?? position
            case .apnsID?: apnsIDAt = apnsIDAt ?? position
            case nil: others.append(HeaderField(lowercaseName: name!, given[position].value))
            }
        }
        func value(at position: Int?) -> String? { position.map { given[$0].value } }
        let pushType = value(at: pushTypeAt)
        let priority = value(at: priorityAt)
        let topic = value(at: topicAt)
        let expiration = value(at: expirationAt)
        let collapseID = value(at: collapseIDAt)
        let apnsID = value(at: apnsIDAt)
        let resolvedPushType = pushType ?? (showsSomething ? "alert" : "background")
        // Made as a literal, whose buffer holds just these four: most sends add none, and
        // reserving room on an empty array goes through the general path that grows it.
        var headers = [
            HeaderField(lowercaseName: "apns-push-type", resolvedPushType),
            HeaderField(lowercaseName: "apns-priority", priority ?? (showsSomething ? "10" : "5")),
            HeaderField(
                lowercaseName: "apns-topic", topic ?? APNsTopic.forBundleID(input.bundleID, pushType: resolvedPushType)),
            HeaderField(
                lowercaseName: "apns-expiration",
                expiration ?? String(input.now.secondsSinceEpoch + defaultExpirationSeconds)),
        ]
        var added = others.count + (collapseID == nil ? 0 : 1)
        if apnsID != nil { added += 1 } else if case .given = input.defaultAPNsID { added += 1 }
        if added > 0 { headers.reserveCapacity(4 + added) }
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

    /// The headers the conversion places itself.
    private enum KnownHeader {
        case pushType, priority, topic, expiration, collapseID, apnsID
    }

    /// Which known header `name` (lowercase) is, or nil.
    private static func knownHeader(_ name: String) -> KnownHeader? {
        switch name {
        case "apns-push-type": .pushType
        case "apns-priority": .priority
        case "apns-topic": .topic
        case "apns-expiration": .expiration
        case "apns-collapse-id": .collapseID
        case "apns-id": .apnsID
        default: nil
        }
    }
}
