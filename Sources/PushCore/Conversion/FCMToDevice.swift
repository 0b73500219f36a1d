/// Turns an FCM v1 message into what one device receives, by the device's platform: an Apple
/// device's APNs notification (`FCMToApple`), an Android app's extras (`AndroidConversion`), a
/// web app's push message (`WebConversion`).
@usableFromInline
enum FCMToDevice {
    /// What the device of `context` receives; nil skips it (a fan-out to an Android device
    /// outside `restricted_package_name`; a token send to one is refused).
    @usableFromInline
    static func content(for message: FCMMessage, context: DeliveryContext) -> Result<DeliveryContent?, GoogleError> {
        switch context.app {
        case .ios:
            switch FCMToApple.notification(for: message, context: context) {
            case .success(let notification): return .success(notification)
            case .failure(let error): return .failure(error)
            }
        case .android(let channels):
            if let restricted = message.android?.restrictedPackageName, restricted != context.bundleID {
                if message.target.isTopicMessage { return .success(nil) }
                return .failure(.fcmInvalidPackageName(restricted: restricted, package: context.bundleID))
            }
            let (converted, byteCount) = AndroidConversion.measuredConversion(of: message, facts: facts(of: message, context: context))
            if let tooBig = tooBig(byteCount) { return .failure(tooBig) }
            return .success(DeliveryContent(.android(converted, channels: channels)))
        case .web(let hasBackgroundHandler):
            let converted = WebConversion.convert(message, facts: facts(of: message, context: context))
            if let tooBig = tooBig(converted.payloadByteCount) { return .failure(tooBig) }
            return .success(DeliveryContent(.web(converted, origin: context.bundleID, hasBackgroundHandler: hasBackgroundHandler)))
        }
    }

    /// FCM's refusal of a message over its limit to an Android or web device.
    private static func tooBig(_ byteCount: Int) -> GoogleError? {
        byteCount > FCMMessage.devicePayloadSizeLimit
            ? .fcmMessageTooBig(byteCount: byteCount, limit: FCMMessage.devicePayloadSizeLimit) : nil
    }

    /// What FCM adds for one Android or web app: `from` is `/topics/<name>` for a topic send, the
    /// project number otherwise.
    private static func facts(of message: FCMMessage, context: DeliveryContext) -> AndroidDeliveryFacts {
        var from = context.senderID
        if case .topic(let topic) = message.target { from = "/topics/" + topic }
        return AndroidDeliveryFacts(
            from: from, senderID: context.senderID, messageID: context.messageID,
            sentAtMilliseconds: context.now.millisecondsSinceEpoch, appID: context.bundleID)
    }
}
