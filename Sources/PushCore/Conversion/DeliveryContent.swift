/// What one device receives for one send: an Apple device's APNs notification, or an Android or
/// web device's message (beside an empty notification). A conversion that gives none skips the
/// device: a fan-out skips an Android device outside `restricted_package_name`.
public struct DeliveryContent: Sendable, Equatable {
    /// The APNs request; empty for an Android or web device.
    public var notification: APNsNotification
    /// An Android or web device's message; nil for an Apple device.
    public var platformMessage: PlatformMessage?

    /// The content of a push to an Apple device.
    public init(_ notification: APNsNotification) {
        self.notification = notification
        self.platformMessage = nil
    }

    /// The content of a message to an Android or web device.
    public init(_ message: PlatformMessage) {
        self.notification = APNsNotification(headers: [], payloadBytes: [])
        self.platformMessage = message
    }
}

extension Result where Success == DeliveryContent? {
    /// A successful conversion to an APNs notification (a device the send does not skip).
    public static func success(_ notification: APNsNotification) -> Self { .success(DeliveryContent(notification)) }
}
