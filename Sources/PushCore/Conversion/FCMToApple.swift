/// Turns an FCM v1 message into the APNs notification one device receives, measured and checked
/// against Apple's payload limit (`PushEmulatorCore.send(project:message:requestBody:)`).
@usableFromInline
enum FCMToApple {
    @usableFromInline
    static func notification(for message: FCMMessage, context: DeliveryContext) -> Result<DeliveryContent?, GoogleError> {
        var fid: String?
        if case .fid(let value) = message.target { fid = value }
        let input = AppleConversionInput(
            context: context,
            notification: message.notification,
            data: message.data,
            apnsHeaders: message.apns?.headers ?? [],
            apnsPayload: message.apns?.payload,
            apnsImage: message.apns?.fcmOptions?.image,
            fid: fid
        )
        let converted = AppleConversion.convert(input)
        let size = converted.payloadByteCount
        // The push type is found among the headers: read only for a payload that might not fit.
        if size <= ApplePayloadLimit.bytesForEveryPushType { return .success(converted) }
        let pushType = converted.pushType
        guard ApplePayloadLimit.fits(byteCount: size, pushType: pushType) else {
            return .failure(.fcmMessageTooBig(byteCount: size, limit: ApplePayloadLimit.bytes(forPushType: pushType)))
        }
        return .success(converted)
    }
}
