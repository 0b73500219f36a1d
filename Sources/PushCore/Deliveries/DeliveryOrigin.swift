/// Which front door a message came through; it decides which storage rules apply.
public enum DeliveryOrigin: String, Sendable, CaseIterable {
    /// FCM HTTP v1 (`messages:send`): FCM's queue rules (offline limit, max pending).
    case fcm
    /// The APNs provider API (`/3/device/...`): Apple's rule, one stored notification per topic.
    case apns
}
