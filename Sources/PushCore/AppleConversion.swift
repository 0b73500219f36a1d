/// Converts an FCM message into the APNs request an Apple device would get (§3 of the spec).
public enum AppleConversion {
    /// How long FCM keeps a message when `apns-expiration` is not given: 30 days.
    public static let defaultExpirationSeconds: Int64 = 30 * 86_400

    /// The headers and payload for `input`. The size check is separate
    /// (`ApplePayloadLimit`), because it needs the serialized payload.
    public static func convert(_ input: AppleConversionInput) -> APNsNotification {
        let payload = makePayload(input)
        let headers = makeHeaders(input, aps: payload["aps"])
        return APNsNotification(headers: headers, payload: payload)
    }

    /// Payload key order: `aps`, custom keys (from `apns.payload`, then `data`), then FCM's keys.
    private static func makePayload(_ input: AppleConversionInput) -> JSONObject {
        let source = input.apnsPayload ?? JSONObject()
        var aps = JSONObject()
        if case .object(let given)? = source["aps"] { aps = given }
        if let notification = input.notification {
            aps = addingAlert(title: notification.title, body: notification.body, to: aps)
        }
        var payload = JSONObject([JSONObject.Member(key: "aps", value: .object(aps))])
        payload.members += source.members.filter { $0.key != "aps" }
        for entry in input.data where payload[entry.key] == nil {
            payload.members.append(JSONObject.Member(key: entry.key, value: .string(entry.value)))
        }
        setLast("gcm.message_id", .string(input.messageID), in: &payload)
        if input.notification != nil { setLast("google.c.a.e", .string("1"), in: &payload) }
        setLast("google.c.sender.id", .string(input.senderID), in: &payload)
        if let fid = input.fid { setLast("google.c.fid", .string(fid), in: &payload) }
        if let image = input.apnsImage ?? input.notification?.image {
            let options = JSONObject([JSONObject.Member(key: "image", value: .string(image))])
            setLast("fcm_options", .object(options), in: &payload)
        }
        return payload
    }

    /// Fills `alert.title/body` where `apns.payload` left them out; a string alert stays as it is.
    private static func addingAlert(title: String?, body: String?, to aps: JSONObject) -> JSONObject {
        var filled = [JSONObject.Member]()
        if let title { filled.append(JSONObject.Member(key: "title", value: .string(title))) }
        if let body { filled.append(JSONObject.Member(key: "body", value: .string(body))) }
        guard !filled.isEmpty else { return aps }
        var aps = aps
        switch aps["alert"] {
        case nil:
            // A new alert goes first, where Apple's and Google's examples put it.
            aps.members.insert(JSONObject.Member(key: "alert", value: .object(JSONObject(filled))), at: 0)
        case .object(var alert)?:
            for member in filled where alert[member.key] == nil { alert[member.key] = member.value }
            aps["alert"] = .object(alert)
        default:
            break
        }
        return aps
    }

    private static func setLast(_ key: String, _ value: JSONValue, in object: inout JSONObject) {
        object[key] = nil
        object.members.append(JSONObject.Member(key: key, value: value))
    }

    /// Known headers in the order of the spec's event example, then any others as given (of a
    /// header given twice, the first counts).
    private static func makeHeaders(_ input: AppleConversionInput, aps: JSONValue?) -> [HeaderField] {
        var pushType, priority, topic, expiration, collapseID, apnsID: String?
        var others = [HeaderField]()
        for field in input.apnsHeaders {
            switch field.name {
            case "apns-push-type": pushType = pushType ?? field.value
            case "apns-priority": priority = priority ?? field.value
            case "apns-topic": topic = topic ?? field.value
            case "apns-expiration": expiration = expiration ?? field.value
            case "apns-collapse-id": collapseID = collapseID ?? field.value
            case "apns-id": apnsID = apnsID ?? field.value
            default: others.append(field)
            }
        }
        var showsSomething = false
        if case .object(let aps)? = aps { showsSomething = APNsNotification.isUserVisible(aps: aps) }
        let resolvedPushType = pushType ?? (showsSomething ? "alert" : "background")
        var headers = [HeaderField]()
        headers.reserveCapacity(6 + others.count)
        headers.append(HeaderField("apns-push-type", resolvedPushType))
        headers.append(HeaderField("apns-priority", priority ?? (showsSomething ? "10" : "5")))
        headers.append(
            HeaderField("apns-topic", topic ?? APNsTopic.forBundleID(input.bundleID, pushType: resolvedPushType)))
        headers.append(
            HeaderField(
                "apns-expiration", expiration ?? String(input.now.secondsSinceEpoch + defaultExpirationSeconds)))
        if let collapseID { headers.append(HeaderField("apns-collapse-id", collapseID)) }
        headers.append(HeaderField("apns-id", apnsID ?? input.apnsID))
        return headers + others
    }
}
