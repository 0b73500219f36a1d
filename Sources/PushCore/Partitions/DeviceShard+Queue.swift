/// The queue rules (docs/fcm.md, docs/apns.md): what a send does to a device's queue, and what a
/// connect does. Each runs within one shard: a device's queue, deliveries and streams are all in it.
extension DeviceShard {
    /// Stores or hands over a new delivery for the device `delivery.token`, found at `knownSlot`
    /// when the caller has its position already, and notes that the log entry `logSequence`
    /// reached the device. Returns the streams that got an event, to be drained outside the lock.
    mutating func enqueue(
        _ delivery: consuming Delivery, at knownSlot: DeviceTable.Index? = nil, logSequence: Int, now: Timestamp,
        configuration: PushCoreConfiguration, quota: DeviceQuota? = nil
    ) -> [StreamSubscriber] {
        // The device is changed in place, through its position: at most one hash of its token per send.
        guard let slot = knownSlot ?? devices.index(forKey: delivery.token) else { return [] }
        assert(devices.token(at: slot) == delivery.token, "a known slot holds the delivery's device")
        // One access in place notes the log entry and reads what the rules below need (the getter
        // of `devices.values[slot]` would copy the device).
        let (isConnected, offlineSince, platform) = Self.change(&devices.values[slot]) { device in
            device.messageLogSequences.append(logSequence)
            return (device.isConnected, device.offlineSince, device.platform)
        }
        var notified = [StreamSubscriber]()
        // Collapsible-message throttling (docs/quotas.md): a turn is taken only by a message that
        // would be handed over or queued now.
        // Read outside any closure: a closure that captured the consumed delivery would hold a copy.
        let isCollapsible = platform == .android && delivery.origin == .fcm && delivery.hasCollapseID && !delivery.isNowOrNever
        let throttling = isCollapsible ? quota?.limits.collapsible : nil
        if !delivery.isNowOrNever, delivery.isExpired(at: now) {
            delivery.move(to: .expired, at: now, reason: "apns-expiration is in the past")
        } else if isConnected, !hold(&delivery, at: slot, throttling, now: now) {
            let subscribers = streams[delivery.token] ?? []
            let event = handOver(&delivery, to: devices.values[slot], at: now)
            devices.values[slot].handedOver[delivery.number] = subscribers.count
            for subscriber in subscribers { subscriber.post([(event, .delivery(number: delivery.number))]) }
            notified = subscribers
        } else if delivery.isNowOrNever {
            delivery.move(
                to: .dropped, at: now,
                reason: platform == .ios ? "apns-expiration 0 and the device is offline" : "ttl 0 and the device is offline")
        } else if !isConnected, delivery.origin == .fcm, platform.hasDeletionRules,
            isOfflineTooLong(since: offlineSince, at: now, configuration: configuration)
        {
            delivery.move(to: .deleted, at: now, reason: DeletionReason.offlineTooLong.rawValue)
            Self.owe(1, reason: .offlineTooLong, by: &devices.values[slot])
        } else {
            // A connected device's turn was taken above.
            if !isConnected { _ = hold(&delivery, at: slot, throttling, now: now) }
            // Most sends carry no collapse id and skip the scan, which would make a long queue quadratic.
            if delivery.hasCollapseID || delivery.origin == .apns {
                // The device and the store are changed in place, side by side: a copy of the
                // device taken out and put back cost more than the collapse itself.
                Self.collapsePending(of: &devices.values[slot], in: &deliveries, replacedBy: delivery, at: now)
                if platform == .android {
                    Self.keepCollapseKeys(of: &devices.values[slot], in: &deliveries, adding: delivery, at: now)
                }
            }
            devices.values[slot].pendingDeliveryNumbers.append(delivery.number)
            expiries.insert(PendingExpiry(expiresAt: delivery.expiresAt, number: delivery.number))
            if let heldUntil = delivery.heldUntil {
                held.insert(HeldRelease(releaseAt: heldUntil, number: delivery.number))
                quota?.counters.countDelayed()
            }
        }
        // Moved into the store: the send keeps only its number.
        deliveries.append(consume delivery)
        return notified
    }

    /// Applies the connect rules to a device and returns what it receives, in order. A poll
    /// (`handingOver` false) gets its deliveries `delivered` at once; a stream gets them handed
    /// over, settled by `finishHandOver` once the stream has sent them or failed to.
    mutating func connect(
        token: String, now: Timestamp, configuration: PushCoreConfiguration, handingOver: Bool = false
    ) -> [(event: DeviceEvent, handOver: HandOver)] {
        guard var device = devices.removeValue(forKey: token) else { return [] }
        defer { devices[token] = device }
        expireDue(on: &device, at: now)
        // A web browser has no deleted-messages signal, and FCM documents neither rule for it.
        let fcmPending = device.platform.hasDeletionRules ? device.pendingDeliveryNumbers.filter { deliveries[$0]?.origin == .fcm } : []
        var reason: DeletionReason?
        if !fcmPending.isEmpty, isOfflineTooLong(since: device.offlineSince, at: now, configuration: configuration) {
            reason = .offlineTooLong
        } else if fcmPending.count > configuration.maxPending {
            reason = .tooManyPending
        }
        if let reason {
            for number in fcmPending { deliveries[number]?.move(to: .deleted, at: now, reason: reason.rawValue) }
            // By a set: a queue may hold many more than `maxPending`, and a scan of `fcmPending`
            // for each would be quadratic.
            let deleted = Set(fcmPending)
            device.pendingDeliveryNumbers.removeAll { deleted.contains($0) }
            Self.owe(fcmPending.count, reason: reason, by: &device)
        }
        var events = [(event: DeviceEvent, handOver: HandOver)]()
        if let owed = device.owedDeletion {
            events.append((.messagesDeleted(reason: owed.reason, count: owed.count), .deletion(reason: owed.reason, count: owed.count)))
            device.owedDeletion = nil
        }
        // A delayed collapsible message stays queued until its time (`releaseHeld` hands it over then).
        var stillHeld = [Int]()
        for number in device.pendingDeliveryNumbers {
            guard var delivery = deliveries[number] else { continue }
            if let heldUntil = delivery.heldUntil, heldUntil > now {
                stillHeld.append(number)
                continue
            }
            events.append((handOver(&delivery, to: device, at: now), .delivery(number: number)))
            if handingOver {
                device.handedOver[number] = 1
            } else {
                delivery.move(to: .delivered, at: now)
            }
            deliveries[number] = delivery
        }
        device.pendingDeliveryNumbers.removeAll()
        for number in stillHeld { device.pendingDeliveryNumbers.append(number) }
        device.lastConnectedAt = now
        scheduleTokenExpiry(of: device)
        return events
    }

    /// Marks every stored delivery whose expiration has passed as expired, earliest first. It
    /// costs what expires (and the entries of deliveries gone from their queue since), not
    /// what is stored: every read of the project runs it.
    mutating func expireDue(at now: Timestamp) {
        while let due = expiries.min, now > due.expiresAt {
            expiries.removeMin()
            guard var delivery = deliveries[due.number], delivery.state == .pending,
                  let slot = devices.index(forKey: delivery.token)
            else { continue }
            // One on its way to a stream is settled by its receipt; if it comes back to the
            // queue, its expiry is scheduled again.
            if Self.read(&devices.values[slot], { $0.handedOver[due.number] != nil }) { continue }
            delivery.move(to: .expired, at: now, reason: Self.expiredOffline(delivery))
            devices[delivery.token]?.removePending(due.number)
            deliveries[due.number] = delivery
        }
    }

    /// The reason of an expiry while queued.
    static func expiredOffline(_ delivery: Delivery) -> String {
        delivery.platformMessage == nil
            ? "apns-expiration passed while the device was offline" : "ttl passed while the device was offline"
    }

    private mutating func expireDue(on device: inout Device, at now: Timestamp) {
        device.pendingDeliveryNumbers.removeAll { number in
            guard let delivery = deliveries[number], delivery.isExpired(at: now) else { return false }
            deliveries[number]?.move(to: .expired, at: now, reason: Self.expiredOffline(delivery))
            return true
        }
    }

    /// The event that hands a delivery to the device, with presentation notes for the app's
    /// state now. The delivery stays `pending` until it is known to be sent.
    func handOver(_ delivery: inout Delivery, to device: Device, at now: Timestamp) -> DeviceEvent {
        delivery.presentedAppState = device.appState
        return .notification(NotificationEvent(delivery: delivery, deliveredAt: now))
    }

    /// Settles what the stream `subscriberID` of the device was given: a delivery sent by any
    /// stream is `delivered`; one that no stream sent goes to the device's other open streams
    /// (a client that reconnected before its old stream closed), or back to the pending queue in
    /// number (send) order when there are none; a `messagesDeleted` signal that was not sent is
    /// owed again. Returns the streams that got an event, to be drained outside the lock.
    mutating func finishHandOver(
        token: String, _ handOver: HandOver, sent: Bool, by subscriberID: Int, at now: Timestamp
    ) -> [StreamSubscriber] {
        guard let slot = devices.index(forKey: token) else {
            // Uninstalled while a stream held it: what that stream wrote was delivered, and
            // what it did not is dropped with the rest of the device's queue.
            if case .delivery(let number) = handOver, deliveries[number]?.token == token, deliveries[number]?.state == .pending {
                if sent {
                    deliveries[number]?.move(to: .delivered, at: now)
                } else {
                    deliveries[number]?.move(to: .dropped, at: now, reason: "uninstalled")
                }
            }
            return []
        }
        switch handOver {
        case .delivery(let number):
            guard let carriers = devices.values[slot].handedOver[number] else { return [] }
            if sent {
                devices.values[slot].handedOver[number] = nil
                deliveries[number]?.move(to: .delivered, at: now)
                return []
            }
            if carriers > 1 {
                devices.values[slot].handedOver[number] = carriers - 1
                return []
            }
            // Looked up only for a delivery no stream sent: every sent one would pay for it.
            let others = (streams[token] ?? []).filter { $0.id != subscriberID }
            if !others.isEmpty, var delivery = deliveries[number] {
                let event = self.handOver(&delivery, to: devices.values[slot], at: now)
                deliveries[number] = delivery
                devices.values[slot].handedOver[number] = others.count
                for subscriber in others { subscriber.post([(event, .delivery(number: number))]) }
                return others
            } else {
                devices.values[slot].handedOver[number] = nil
                devices.values[slot].insertPending(number)
                if let expiresAt = deliveries[number]?.expiresAt {
                    expiries.insert(PendingExpiry(expiresAt: expiresAt, number: number))
                }
            }
        case .deletion(let reason, let count):
            if !sent { Self.owe(count, reason: reason, by: &devices.values[slot]) }
        }
        return []
    }

    /// A stored delivery with the same collapse id — or, for the APNs API, the same topic
    /// (Apple stores one notification per app) — gives way to the new one.
    private static func collapsePending(
        of device: inout Device, in deliveries: inout DeliveryStore, replacedBy newer: Delivery, at now: Timestamp
    ) {
        // Looked for among the headers only when the send has one.
        let collapseID = newer.hasCollapseID ? newer.collapseID : nil
        let apnsTopic = newer.origin == .apns ? newer.notification.topic : nil
        let newerNumber = newer.number
        device.pendingDeliveryNumbers.removeAll { number in
            // Each stored delivery is looked at where it is: a copy of it would retain and
            // release its every part, and an APNs send looks at the device's every stored push.
            deliveries.update(number) { older in
                let sameCollapseID = collapseID != nil && older.collapseID == collapseID
                let sameAPNsTopic = apnsTopic != nil && older.origin == .apns && older.notification.topic == apnsTopic
                guard sameCollapseID || sameAPNsTopic else { return false }
                older.collapse(at: now, replacedBy: newerNumber)
                return true
            } ?? false
        }
    }

    /// FCM's limit of four collapse keys per Android device: when `newer` brings a fifth, the
    /// stored messages of the key used least recently give way (Google names no rule for which:
    /// this one is ours, docs/android.md).
    private static func keepCollapseKeys(
        of device: inout Device, in deliveries: inout DeliveryStore, adding newer: Delivery, at now: Timestamp
    ) {
        // Oldest first; each key's newest use decides its place.
        var keys: [String] = []
        for number in device.pendingDeliveryNumbers {
            guard let key = deliveries[number]?.collapseID else { continue }
            keys.removeAll { $0 == key }
            keys.append(key)
        }
        if let key = newer.collapseID {
            keys.removeAll { $0 == key }
            keys.append(key)
        }
        guard keys.count > maxCollapseKeys else { return }
        let dropped = Set(keys.prefix(keys.count - maxCollapseKeys))
        let reason = "more than \(maxCollapseKeys) collapse keys pending: d-\(newer.number) brought a new one"
        device.pendingDeliveryNumbers.removeAll { number in
            deliveries.update(number) { older in
                guard let key = older.collapseID, dropped.contains(key) else { return false }
                older.move(to: .collapsed, at: now, reason: reason)
                return true
            } ?? false
        }
    }

    /// How many collapse keys FCM keeps per Android device.
    static let maxCollapseKeys = 4

    private func isOfflineTooLong(since offlineSince: Timestamp, at now: Timestamp, configuration: PushCoreConfiguration) -> Bool {
        now.millisecondsSinceEpoch - offlineSince.millisecondsSinceEpoch
            > configuration.offlineLimitSeconds * 1000
    }

    private static func owe(_ count: Int, reason: DeletionReason, by device: inout Device) {
        guard count > 0 else { return }
        // Held at the largest number a snapshot holds, so that an export imports again.
        let owed = min((device.owedDeletion?.count ?? 0) + count, SnapshotReader.largestInt)
        device.owedDeletion = Device.OwedDeletion(reason: reason, count: owed)
    }
}
