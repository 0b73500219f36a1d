import ByteCoding

// FCM's own rules (fcm-v1.md "Validation rules"), checked after the JSON front end has
// accepted the shapes and types. The first broken rule is reported, as FCM does, with a
// BadRequest naming the field and an FcmError INVALID_ARGUMENT. Google often answers these
// with a bare "Request contains an invalid argument."; the emulator keeps that shape but
// says what is wrong and how to fix it. Not checked here: token well-formedness (device
// registry), payload size (after APNs conversion).
extension FCMMessage {
    /// The longest TTL FCM accepts: 28 days.
    public static let maximumTTL = GoogleDuration(seconds: 2_419_200)

    /// Throws the error FCM answers for the first rule this message breaks.
    public func validate() throws(GoogleError) {
        try validateTarget()
        try Self.checkReservedKeys(data, field: "message.data")
        if let android {
            try Self.checkReservedKeys(android.data, field: "message.android.data")
            if let ttl = android.ttl, ttl < GoogleDuration(seconds: 0) || ttl > Self.maximumTTL {
                throw GoogleError.fcmInvalidArgument(
                    "Invalid TTL \"\(ttl)\": it must be between 0s and 2419200s (28 days).",
                    field: "message.android.ttl")
            }
            if let settings = android.notification?["light_settings"]?.objectValue {
                try Self.checkLightSettings(settings)
            }
        }
        if let webpush {
            for header in webpush.headers where header.key.lowercased() == "ttl" {
                // Seconds from 0 to 2419200 (the TTL field's range); the wording is ours.
                guard let seconds = Int64(header.value), seconds >= 0, seconds <= Self.maximumTTL.seconds else {
                    throw GoogleError.fcmInvalidArgument(
                        "Invalid TTL \"\(header.value)\": webpush.headers.TTL must be a whole number of seconds from 0 to 2419200 (28 days).",
                        field: "message.webpush.headers.TTL")
                }
            }
        }
        if let link = webpush?.fcmOptions?.link, !link.hasPrefix("https://") {
            // "For all URL values, HTTPS is required" (the v1 reference); the wording is ours.
            throw GoogleError.fcmInvalidArgument(
                "Invalid link \"\(link)\": webpush.fcm_options.link must be an HTTPS URL.",
                field: "message.webpush.fcm_options.link")
        }
        // One call per label rather than a list of them: every send runs this, and a list is an
        // allocation. Only a label that is set is checked: most sends set none.
        if let label = fcmOptions?.analyticsLabel {
            try Self.checkAnalyticsLabel(label, field: "message.fcm_options.analytics_label")
        }
        if let label = android?.fcmOptions?.analyticsLabel {
            try Self.checkAnalyticsLabel(label, field: "message.android.fcm_options.analytics_label")
        }
        if let label = apns?.fcmOptions?.analyticsLabel {
            try Self.checkAnalyticsLabel(label, field: "message.apns.fcm_options.analytics_label")
        }
        if let label = webpush?.fcmOptions?.analyticsLabel {
            try Self.checkAnalyticsLabel(label, field: "message.webpush.fcm_options.analytics_label")
        }
    }

    /// `LightSettings` marks its colour and both durations "Required" (the v1 reference); that the
    /// server refuses a message without one is our convention (docs/android.md).
    private static func checkLightSettings(_ settings: JSONObject) throws(GoogleError) {
        for member in ["color", "light_on_duration", "light_off_duration"] where settings[member] == nil {
            throw GoogleError.fcmInvalidArgument(
                "message.android.notification.light_settings.\(member) is required.",
                field: "message.android.notification.light_settings.\(member)")
        }
    }

    private static func checkAnalyticsLabel(_ label: String, field: String) throws(GoogleError) {
        guard !isValidAnalyticsLabel(label) else { return }
        throw GoogleError.fcmInvalidArgument(
            "Invalid analytics_label \"\(label)\": use 1 to 50 of the characters a-z A-Z 0-9 - _ . ~ %.",
            field: field)
    }

    private func validateTarget() throws(GoogleError) {
        switch target {
        case .token(let token) where token.isEmpty:
            throw GoogleError.fcmInvalidRegistrationToken()
        case .fid(let fid) where fid.isEmpty:
            throw GoogleError.fcmInvalidArgument(
                "The installation ID is empty: set message.fid to a Firebase installation ID.", field: "message.fid")
        case .topic(let topic) where !Self.isValidTopicName(topic):
            throw GoogleError.fcmInvalidArgument(
                "Invalid topic name \"\(topic)\": use 1 to \(TopicNameCharacter.maximumNameLength) of the characters"
                    + " a-z A-Z 0-9 - _ . ~ %, without the /topics/ prefix.",
                field: "message.topic")
        case .condition(let condition):
            // Parsed again at send time; parsing is cheap and keeps the target a plain value.
            do throws(TopicConditionError) {
                _ = try TopicCondition(parsing: condition)
            } catch {
                throw GoogleError.fcmInvalidArgument(error.message, field: "message.condition")
            }
        default:
            return
        }
    }

    /// True for `[a-zA-Z0-9-_.~%]{1,900}` (v1 topic names carry no `/topics/` prefix): the one
    /// topic name rule (`TopicNameCharacter`).
    public static func isValidTopicName(_ name: String) -> Bool {
        TopicNameCharacter.isValidName(name)
    }

    /// True for `[a-zA-Z0-9-_.~%]{1,50}`.
    public static func isValidAnalyticsLabel(_ label: String) -> Bool {
        (1...50).contains(label.utf8.count) && label.utf8.allSatisfy(TopicNameCharacter.isAllowed)
    }

    /// True for `from`, `message_type`, and keys starting with `google` or `gcm` — the three
    /// ways Google words the reserved keys, all enforced.
    public static func isReservedDataKey(_ key: String) -> Bool {
        // Every send checks every data key, and `hasPrefix` compares characters; ASCII bytes
        // answer the same for all but keys starting with a non-ASCII byte (no other character
        // is canonically equivalent to a lowercase ASCII letter) or with a reserved prefix
        // followed by one (which may be a combining mark that changes the last character).
        switch key.utf8.first {
        case nil: return false
        case UInt8(ascii: "f"): return key == "from"
        case UInt8(ascii: "m"): return key == "message_type"
        case UInt8(ascii: "g"): return hasReservedPrefix(key, "google") || hasReservedPrefix(key, "gcm")
        case let byte? where byte >= 0x80:
            return key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
        default: return false
        }
    }

    /// `key.hasPrefix(prefix)` for an ASCII `prefix`, by bytes where bytes tell.
    private static func hasReservedPrefix(_ key: String, _ prefix: String) -> Bool {
        guard key.utf8.starts(with: prefix.utf8) else { return false }
        let next = key.utf8.dropFirst(prefix.utf8.count).first
        guard let next, next >= 0x80 else { return true }
        return key.hasPrefix(prefix)
    }

    private static func checkReservedKeys(_ pairs: [FCMStringPair], field: String) throws(GoogleError) {
        // By position, not through a closure given each pair: that copies the pair, retaining
        // and releasing both its strings, for every key of every send.
        var found: Int?
        for position in pairs.indices where isReservedDataKey(pairs[position].key) {
            found = position
            break
        }
        guard let position = found else { return }
        throw GoogleError.fcmInvalidArgument(
            "Invalid data payload key \"\(pairs[position].key)\": \"from\", \"message_type\" and keys starting with"
                + " \"google\" or \"gcm\" are reserved.",
            field: "\(field)[\(position)].key")
    }
}
