/// Where a delivery stands.
public enum DeliveryState: String, Sendable, CaseIterable {
    /// Stored, waiting for the device to connect.
    case pending
    /// Handed to the device.
    case delivered
    /// Its `apns-expiration` passed before the device connected.
    case expired
    /// Replaced by a newer delivery with the same collapse id (or, for APNs, the same topic).
    case collapsed
    /// Thrown away by FCM's storage rules; the device is told with a `messagesDeleted` event.
    case deleted
    /// Never stored: `apns-expiration: 0` to an offline device, or the app was uninstalled.
    case dropped

    /// Whether the delivery can still change state.
    public var isFinal: Bool { self != .pending }
}
