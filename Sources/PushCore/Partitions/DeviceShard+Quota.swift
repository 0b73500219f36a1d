/// The per-device limits (docs/quotas.md), checked and counted under the device's shard lock.
extension DeviceShard {
    /// Counts one message to the device at `slot` against `limits`, or says which limit refuses
    /// it (nothing counted then).
    mutating func takeDeviceQuota(at slot: DeviceTable.Index, limits: QuotaLimits, now: Timestamp) -> QuotaKind? {
        guard limits.limitsDevices else { return nil }
        let token = devices.token(at: slot)
        let platform = Self.read(&devices.values[slot]) { $0.platform }
        var use = quotaUse.removeValue(forKey: token) ?? DeviceQuotaUse()
        defer { quotaUse[token] = use }
        return use.take(platform: platform, limits: limits, now: now)
    }
}

/// Collapsible-message throttling (docs/quotas.md): a collapsible message to an Android app past
/// its burst is queued with a release time, and handed over when that time comes.
extension DeviceShard {
    /// Delays `delivery` to the device at `slot` past the device's collapsible burst, under
    /// `throttling` (nil: none): sets its `heldUntil` and says whether it is delayed.
    mutating func hold(
        _ delivery: inout Delivery, at slot: DeviceTable.Index, _ throttling: (burst: Int, refillSeconds: Int)?,
        now: Timestamp
    ) -> Bool {
        guard let throttling else { return false }
        delivery.heldUntil = collapsibleHold(
            of: delivery.collapseID, at: slot, burst: throttling.burst, refillSeconds: throttling.refillSeconds, now: now)
        return delivery.heldUntil != nil
    }

    /// When a collapsible message with `collapseKey` to the device at `slot` may go through: nil
    /// for now. A delayed message with the same key that it replaces gives it its turn; otherwise
    /// it spends one of the device's burst.
    mutating func collapsibleHold(
        of collapseKey: String?, at slot: DeviceTable.Index, burst: Int, refillSeconds: Int, now: Timestamp
    ) -> Timestamp? {
        let pending = Self.read(&devices.values[slot]) { $0.pendingDeliveryNumbers }
        var inherited: Timestamp?
        for number in pending {
            guard let older = deliveries[number], older.collapseID == collapseKey, let until = older.heldUntil, until > now
            else { continue }
            inherited = min(inherited ?? until, until)
        }
        if let inherited { return inherited }
        let token = devices.token(at: slot)
        var use = quotaUse.removeValue(forKey: token) ?? DeviceQuotaUse()
        defer { quotaUse[token] = use }
        return use.delayCollapsible(burst: burst, refillSeconds: refillSeconds, now: now)
    }

    /// Hands each delayed message whose time has come (by `now`) to its device's streams, if it
    /// has any open and the message is still queued; a device offline gets it at its next
    /// connect. Returns the streams that got an event, to be drained outside the lock, and how
    /// many release times were reached.
    mutating func releaseHeld(at now: Timestamp) -> (notified: [StreamSubscriber], reached: Int) {
        var notified = [StreamSubscriber]()
        var reached = 0
        while let due = held.min, due.releaseAt <= now {
            held.removeMin()
            reached += 1
            guard var delivery = deliveries[due.number], delivery.state == .pending,
                let slot = devices.index(forKey: delivery.token),
                Self.read(&devices.values[slot], { $0.isConnected && $0.handedOver[due.number] == nil })
            else { continue }
            // Its time to live ran out while it waited: it expires instead.
            if delivery.isExpired(at: now) {
                delivery.move(to: .expired, at: now, reason: Self.expiredOffline(delivery))
                devices.values[slot].removePending(due.number)
                deliveries[due.number] = delivery
                continue
            }
            let subscribers = streams[delivery.token] ?? []
            devices.values[slot].removePending(due.number)
            let event = handOver(&delivery, to: devices.values[slot], at: now)
            deliveries[due.number] = delivery
            devices.values[slot].handedOver[due.number] = subscribers.count
            for subscriber in subscribers { subscriber.post([(event, .delivery(number: due.number))]) }
            notified += subscribers
        }
        return (notified, reached)
    }
}
