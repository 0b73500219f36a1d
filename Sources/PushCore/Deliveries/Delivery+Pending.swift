import ByteCoding

extension Delivery {
    /// A new pending delivery of `content` to `device`, numbered `number`, with its expiration
    /// read from `apns-expiration` (absent: 30 days, FCM's default and Apple's storage window),
    /// or an Android or web message's time to live.
    static func pending(
        _ content: DeliveryContent, number: Int, messageName: MessageName, device: Device, origin: DeliveryOrigin,
        now: Timestamp
    ) -> Delivery {
        if let message = content.platformMessage {
            let ttl = message.ttlSeconds
            return Delivery(
                number: number, messageName: messageName, token: device.token, origin: origin,
                enqueuedAt: now, expiresAt: now.adding(seconds: ttl), isNowOrNever: ttl == 0,
                hasCollapseID: message.collapseKey != nil, notification: content.notification,
                platformMessage: message, presentedAppState: device.appState)
        }
        let notification = content.notification
        // One pass over the headers, which are lowercase already (a generated `apns-id` aside),
        // by position: a loop over the fields themselves copies each, retaining both its strings.
        var expiration: String?
        var hasCollapseID = false
        let fields = notification.fields
        for index in fields.indices {
            // Lengths first: comparing text costs more, and only two names matter here.
            switch fields[index].name.utf8.count {
            case 15 where fields[index].name == "apns-expiration": expiration = expiration ?? fields[index].value
            case 16 where fields[index].name == "apns-collapse-id": hasCollapseID = true
            default: break
            }
        }
        let seconds = expiration.flatMap { Int64($0) }
        // The header is a number: any spelling of 0 (`00` too) is "deliver now or never", not
        // the epoch, which would expire the notification even for a connected device.
        let isNowOrNever = seconds == 0
        let expiresAt =
            isNowOrNever
            ? now
            : seconds.map { Timestamp(secondsSinceEpoch: $0) }
                ?? now.adding(seconds: AppleConversion.defaultExpirationSeconds)
        return Delivery(
            number: number, messageName: messageName, token: device.token, origin: origin,
            enqueuedAt: now, expiresAt: expiresAt, isNowOrNever: isNowOrNever, hasCollapseID: hasCollapseID,
            notification: notification,
            presentedAppState: device.appState)
    }
}
