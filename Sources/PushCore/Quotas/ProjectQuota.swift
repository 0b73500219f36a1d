/// A project's limits and its project-wide windows, behind their own lock in the project's slot
/// (`ProjectSlot.admitSend`): taken alone, never with another lock of the project held.
struct ProjectQuota: Sendable {
    var limits: QuotaLimits
    /// FCM messages and client errors (`projectMessagesPerMinute`).
    var messages = QuotaWindow()
    /// Topic subscriptions added or removed (`topicSubscriptionsPerSecond`).
    var subscriptions = QuotaWindow()

    init(limits: QuotaLimits) {
        self.limits = limits
    }
}

/// What the project's limits say to a send (`ProjectSlot.admitSend`).
enum SendAdmission: Sendable {
    /// The project's message limit refuses it.
    case refused
    /// Go on, checking each device against `limits`; `counted`: the send took one from the
    /// project's window (given back if a device's limit refuses it).
    case admitted(limits: QuotaLimits, counted: Bool)
}
