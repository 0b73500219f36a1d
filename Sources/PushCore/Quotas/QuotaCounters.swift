import Synchronization

/// The quotas' counts since the start (`/metrics` shows them; kept through resets): requests each
/// limit refused, collapsible messages delayed, and the delayed ones not yet looked at again. A
/// limit acts only once passed, in tests that set it: an atomic for each is enough.
final class QuotaCounters: Sendable {
    private let projectMessages = Atomic<Int>(0)
    private let androidDeviceMinute = Atomic<Int>(0)
    private let androidDeviceHour = Atomic<Int>(0)
    private let appleDeviceMinute = Atomic<Int>(0)
    private let topicSubscriptions = Atomic<Int>(0)
    /// Collapsible messages delayed since the start.
    private let delayed = Atomic<Int>(0)
    /// Delayed messages whose release time no sweep has reached yet (`releaseHeldDeliveries`
    /// returns at once while there are none).
    private let waiting = Atomic<Int>(0)

    /// Counts one request refused by `kind`.
    func count(_ kind: QuotaKind) {
        switch kind {
        case .projectMessages: projectMessages.wrappingAdd(1, ordering: .relaxed)
        case .androidDeviceMinute: androidDeviceMinute.wrappingAdd(1, ordering: .relaxed)
        case .androidDeviceHour: androidDeviceHour.wrappingAdd(1, ordering: .relaxed)
        case .appleDeviceMinute: appleDeviceMinute.wrappingAdd(1, ordering: .relaxed)
        case .topicSubscriptions: topicSubscriptions.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// The refusals, by limit.
    var refusedByKind: [QuotaKind: Int] {
        [
            .projectMessages: projectMessages.load(ordering: .relaxed),
            .androidDeviceMinute: androidDeviceMinute.load(ordering: .relaxed),
            .androidDeviceHour: androidDeviceHour.load(ordering: .relaxed),
            .appleDeviceMinute: appleDeviceMinute.load(ordering: .relaxed),
            .topicSubscriptions: topicSubscriptions.load(ordering: .relaxed),
        ]
    }

    /// Counts a collapsible message delayed, to be looked at again when its time comes.
    func countDelayed() {
        delayed.wrappingAdd(1, ordering: .relaxed)
        waiting.wrappingAdd(1, ordering: .relaxed)
    }

    /// Collapsible messages delayed since the start.
    var delayedCount: Int { delayed.load(ordering: .relaxed) }

    /// Whether a delayed message waits for its release time.
    var hasWaiting: Bool { waiting.load(ordering: .relaxed) > 0 }

    /// Notes that `count` delayed messages were looked at again (or left with their project).
    func noteReleased(_ count: Int) {
        if count > 0 { waiting.wrappingSubtract(count, ordering: .relaxed) }
    }
}

/// What a send checks each device it reaches against: the project's limits, and where to count.
/// A reference, made only while the project has limits: a send without passes one nil word.
final class DeviceQuota: Sendable {
    let limits: QuotaLimits
    let counters: QuotaCounters

    init(limits: QuotaLimits, counters: QuotaCounters) {
        self.limits = limits
        self.counters = counters
    }
}
