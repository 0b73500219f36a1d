/// Which limit refused a request (`/metrics` counts each; docs/quotas.md).
public enum QuotaKind: String, Sendable, CaseIterable {
    /// FCM's messages per project per minute.
    case projectMessages
    /// FCM's messages to one Android device per minute.
    case androidDeviceMinute
    /// FCM's messages to one Android device per hour.
    case androidDeviceHour
    /// Notifications to one Apple device per minute (ours).
    case appleDeviceMinute
    /// Topic subscriptions changed per project per second.
    case topicSubscriptions

    /// Whether the limit is one device's.
    public var isPerDevice: Bool {
        switch self {
        case .androidDeviceMinute, .androidDeviceHour, .appleDeviceMinute: true
        case .projectMessages, .topicSubscriptions: false
        }
    }
}
