/// Why FCM deleted stored messages (the `reason` of a `messagesDeleted` event).
public enum DeletionReason: String, Sendable, CaseIterable {
    /// The device had not connected for longer than the offline limit (default 30 days).
    case offlineTooLong
    /// More than the maximum (default 100) messages were pending when the device connected.
    case tooManyPending
}
