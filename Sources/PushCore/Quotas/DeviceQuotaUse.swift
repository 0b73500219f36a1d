/// What one device has used of its per-device limits (kept by its shard, only while quotas are on).
struct DeviceQuotaUse: Sendable {
    var minute = QuotaWindow()
    var hour = QuotaWindow()
    /// For collapsible-message throttling: when the next collapsible message would go through
    /// with nothing of the burst spent (the theoretical arrival time of a generic cell rate
    /// algorithm: a burst of `burst`, then one every `refillSeconds`); nil before the first.
    var collapsibleDue: Timestamp?
    /// When the last collapsible message was counted: a clock moved back by more than a refill
    /// before it starts the burst afresh (less is two sends reading the clock a moment apart).
    var collapsibleLastUse: Timestamp?

    /// Spends one of the burst on a collapsible message at `now`: nil when it goes through now,
    /// else when it may (the next refill it reserves).
    mutating func delayCollapsible(burst: Int, refillSeconds: Int, now: Timestamp) -> Timestamp? {
        if let last = collapsibleLastUse, now < last.adding(seconds: -Int64(refillSeconds)) {
            collapsibleDue = nil
            collapsibleLastUse = now
        } else {
            collapsibleLastUse = max(collapsibleLastUse ?? now, now)
        }
        // Limits go up to a billion each: the products are bounded (saturating) rather than trapping.
        let interval = Int64(refillSeconds).multipliedReportingOverflow(by: 1_000)
        let tolerance = Int64(burst - 1).multipliedReportingOverflow(by: interval.partialValue)
        guard !interval.overflow, !tolerance.overflow else { return nil }
        let due = max(collapsibleDue ?? now, now)
        let next = due.millisecondsSinceEpoch.addingReportingOverflow(interval.partialValue)
        collapsibleDue = next.overflow ? Timestamp.latest : Timestamp(millisecondsSinceEpoch: next.partialValue)
        let releaseAt = due.millisecondsSinceEpoch - tolerance.partialValue
        return releaseAt > now.millisecondsSinceEpoch ? Timestamp(millisecondsSinceEpoch: releaseAt) : nil
    }

    /// Counts one message to a device of `platform` at `now`, or says which limit refuses it
    /// (nothing counted then). Web devices have no documented limit and are never refused.
    mutating func take(platform: Platform, limits: QuotaLimits, now: Timestamp) -> QuotaKind? {
        switch platform {
        case .android:
            if let perMinute = limits.androidDevicePerMinute,
                !minute.take(limit: perMinute, lengthSeconds: 60, now: now)
            {
                return .androidDeviceMinute
            }
            if let perHour = limits.androidDevicePerHour, !hour.take(limit: perHour, lengthSeconds: 3_600, now: now) {
                if limits.androidDevicePerMinute != nil { minute.giveBack() }
                return .androidDeviceHour
            }
            return nil
        case .ios:
            if let perMinute = limits.appleDevicePerMinute, !minute.take(limit: perMinute, lengthSeconds: 60, now: now) {
                return .appleDeviceMinute
            }
            return nil
        case .web:
            return nil
        }
    }
}
