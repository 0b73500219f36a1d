import ByteCoding

/// A v1 message → what an Android app's FCM SDK receives (docs/android.md): Google's wire keys
/// (`google.*`, `gcm.notification.*`) and the data keys, with `android` over the top-level
/// fields where the v1 reference says it overrides them.
public enum AndroidConversion {
    /// FCM's default time to live, four weeks, in seconds.
    public static let defaultTTLSeconds: Int64 = 2_419_200

    /// The extras of `message` for one app.
    public static func convert(_ message: FCMMessage, facts: AndroidDeliveryFacts) -> AndroidMessage {
        measuredConversion(of: message, facts: facts).message
    }

    /// `convert`, with the bytes that count toward FCM's 4096-byte limit: the keys and values of
    /// the extras the sender wrote (the notification's and the data), not those FCM adds (ours:
    /// Google does not say). Counted as the extras are made, where it is known which are whose.
    static func measuredConversion(
        of message: FCMMessage, facts: AndroidDeliveryFacts
    ) -> (message: AndroidMessage, payloadByteCount: Int) {
        let android = message.android
        let notification = AndroidNotificationExtras.extras(top: message.notification, android: android?.notification)
        let isNotification = message.notification != nil || android?.notification != nil
        let priority = android?.priority.map { $0 == .high ? "high" : "normal" } ?? (isNotification ? "high" : "normal")
        // Whole seconds, rounded down, as the v1 reference says.
        let ttl = android?.ttl.map { max(0, $0.seconds) } ?? defaultTTLSeconds
        // Notification messages are collapsed under the package whatever the sender asked; data
        // messages carry a key only when the sender gave one.
        let collapseKey = isNotification ? facts.appID : android?.collapseKey
        var extras = [
            FCMStringPair("from", facts.from),
            FCMStringPair("google.message_id", facts.messageID),
            FCMStringPair("google.sent_time", String(facts.sentAtMilliseconds)),
            FCMStringPair("google.ttl", String(ttl)),
            FCMStringPair("google.original_priority", priority),
            FCMStringPair("google.delivered_priority", priority),
            FCMStringPair("google.c.sender.id", facts.senderID),
        ]
        if isNotification { extras.append(FCMStringPair("google.c.a.e", "1")) }
        if let label = android?.fcmOptions?.analyticsLabel ?? message.fcmOptions?.analyticsLabel {
            extras.append(FCMStringPair("google.c.a.m_l", label))
        }
        if let collapseKey { extras.append(FCMStringPair("collapse_key", collapseKey)) }
        if isNotification {
            extras.append(FCMStringPair("gcm.notification.e", "1"))
            extras.append(FCMStringPair("gcm.n.dnp", "1"))
        }
        // From here on, every extra is the sender's.
        let sendersFrom = extras.count
        if isNotification { extras += notification }
        // `android.data` replaces `data` when given (our reading of "override": the whole map).
        let data = android.map { $0.data.isEmpty ? message.data : $0.data } ?? message.data
        for pair in data where pair.key != "collapse_key" { extras.append(pair) }
        let payloadByteCount = extras[sendersFrom...].reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        let converted = AndroidMessage(
            extras: extras, isNotification: isNotification, collapseKey: collapseKey, ttlSeconds: ttl, priority: priority)
        return (converted, payloadByteCount)
    }

    /// The extras of the deleted-messages signal (`message_type` `deleted_messages`), which makes
    /// the SDK call `onDeletedMessages()`.
    public static func deletedMessages(facts: AndroidDeliveryFacts) -> [FCMStringPair] {
        [
            FCMStringPair("from", facts.senderID),
            FCMStringPair("message_type", "deleted_messages"),
            FCMStringPair("google.sent_time", String(facts.sentAtMilliseconds)),
            FCMStringPair("google.c.sender.id", facts.senderID),
        ]
    }
}
