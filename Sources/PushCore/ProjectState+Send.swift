extension ProjectState {
    /// `PushEmulatorCore.send` with the whole project locked, for a send that the shards cannot
    /// take one at a time (a topic or condition, a device the send registers): resolves the
    /// target, converts, numbers, queues and logs. Returns the outcome and the streams to drain once
    /// unlocked. Message ids and delivery numbers come from `counters`, taken here, under the
    /// project's locks, so that each shard's deliveries are numbered in the order they are
    /// stored; a device this send registers with an APNs token is noted in `indexes`.
    mutating func accept<Failure: Error & Sendable>(
        counters: IdentifierCounters,
        indexes: CrossProjectIndexes,
        configuration: PushCoreConfiguration,
        now: Timestamp,
        target: MessageTarget,
        origin: DeliveryOrigin,
        requestBody: [UInt8],
        implicitBundleID: String?,
        knownDevice: KnownDevice? = nil,
        deviceQuota: DeviceQuota? = nil,
        makeContent: (DeliveryContext) -> Result<DeliveryContent?, Failure>
    ) -> (SendOutcome<Failure>, [StreamSubscriber]) {
        expireInactiveTokens(at: now)
        var tokens = [String]()
        var newDevice: Device?
        // The shard and position of a single stored target, valid until a device is inserted.
        var slot: (shard: Int, position: DeviceTable.Index)?
        // The device an APNs send found a moment ago, if it still has the APNs token: one lookup by
        // its token instead of two (APNs token, then device).
        let resolution: ProjectState.Resolution
        let knownShard = knownDevice.map { DeviceShard.index(of: $0.key) }
        if let knownDevice, let knownShard, case .apnsToken(let given) = target,
            let position = shards[knownShard].position(ofDevice: knownDevice.key, withAPNsToken: given)
        {
            resolution = .device(shard: knownShard, position)
        } else {
            resolution = resolve(target, mode: configuration.tokenMode, now: now)
        }
        switch resolution {
        case .unreachable(let reason):
            return (.unreachable(reason), [])
        case .uninstalledLately(let token):
            // Accepted as FCM and APNs accept it (converted for the device as it was, so that a
            // message it would refuse is refused), logged, and delivered to nobody.
            if let exhausted = Counter.check(.messageID, at: counters.upcomingMessageID) ?? Counter.check(.logSequence, at: log.nextSequence) {
                return (.exhausted(exhausted), [])
            }
            guard let messageID = counters.takeMessageID() else { return (.exhausted(CounterExhausted(counter: .messageID)), []) }
            let name = MessageName(project: projectID, id: messageID)
            if let device = token.flatMap(lingeringDevice) {
                let context = DeliveryContext(
                    messageName: name, bundleID: device.bundleID, senderID: configuration.senderID ?? derivedSenderID,
                    generatedAPNsID: RandomUUID(using: &random), now: now, app: device.app)
                if case .failure(let failure) = makeContent(context) { return (.rejected(failure), []) }
            }
            let none = counters.upcomingDeliveryNumber..<counters.upcomingDeliveryNumber
            log.append(name: name, origin: origin, sentAt: now, target: target, requestBody: requestBody, deliveryNumbers: none)
            if let token { shards[DeviceShard.index(of: token)].noteLogEntryOfUninstalled(token, sequence: log.nextSequence - 1) }
            return (.accepted(SentMessage(messageName: name, deliveryNumbers: none)), [])
        case .devices(let found):
            tokens = found
        case .device(let shard, let position):
            slot = (shard, position)
        case .newDevice(let token, let apnsToken):
            // Registered by the send as an Apple device: FCM's lenient mode and an APNs send.
            newDevice = makeDevice(
                token: token ?? unusedToken(), apnsToken: apnsToken, platform: .ios,
                bundleID: implicitBundleID ?? configuration.defaultBundleID, appState: .background, now: now)
        }
        // Every counter the send moves is checked before any moves: a refused send changes nothing
        // (unless another project's send takes the last shared numbers between check and taking).
        let deliveryCount = slot != nil || newDevice != nil ? 1 : tokens.count
        if let exhausted = Counter.check(.messageID, at: counters.upcomingMessageID)
            ?? Counter.check(.deliveryNumber, at: counters.upcomingDeliveryNumber, toNumber: deliveryCount)
            ?? Counter.check(.logSequence, at: log.nextSequence)
            ?? (newDevice == nil ? nil : Counter.check(.deviceSequence, at: nextDeviceSequence))
        {
            return (.exhausted(exhausted), [])
        }
        guard let messageID = counters.takeMessageID() else { return (.exhausted(CounterExhausted(counter: .messageID)), []) }
        let name = MessageName(project: projectID, id: messageID)
        let senderID = configuration.senderID ?? derivedSenderID
        // Converted first, numbered once every conversion succeeded: a failed one takes no numbers.
        // Typed throws rather than a `Result`: a generic `Result` is destroyed through its type's
        // metadata on every send.
        func convert(for device: Device) throws(Failure) -> DeliveryContent? {
            let context = DeliveryContext(
                messageName: name, bundleID: device.bundleID, senderID: senderID,
                generatedAPNsID: RandomUUID(using: &random), now: now, app: device.app)
            return try makeContent(context).get()
        }
        let exhaustedNumbers = SendOutcome<Failure>.exhausted(CounterExhausted(counter: .deliveryNumber))
        if slot != nil || newDevice != nil {
            // A token send reaches one device: it goes without the arrays a topic send needs.
            // Nil: no numbers left (`exhausted`), or the device is skipped (`skipped`).
            func make(for device: Device) throws(Failure) -> Delivery? {
                guard let content = try convert(for: device) else {
                    skipped = true
                    return nil
                }
                guard let number = counters.takeDeliveryNumbers(1) else { return nil }
                return .pending(content, number: number, messageName: name, device: device, origin: origin, now: now)
            }
            var skipped = false
            let made: Delivery?
            do throws(Failure) {
                if let newDevice {
                    made = try make(for: newDevice)
                } else {
                    // Not through the getter of `devices.values[slot]`, which copies the device.
                    made = try DeviceShard.read(&shards[slot!.shard].devices.values[slot!.position]) {
                        device throws(Failure) in try make(for: device)
                    }
                }
            } catch {
                return (.rejected(error), [])
            }
            if skipped {
                // The conversion gave nothing for the one device: the message is logged, with no delivery.
                let none = counters.upcomingDeliveryNumber..<counters.upcomingDeliveryNumber
                log.append(
                    name: name, origin: origin, sentAt: now, target: target, requestBody: requestBody, deliveryNumbers: none)
                return (.accepted(SentMessage(messageName: name, deliveryNumbers: none)), [])
            }
            guard let made else { return (exhaustedNumbers, []) }
            // Counted once converted, as the shard's own path does (its numbers, taken, go unused).
            if let deviceQuota, let slot,
                let refused = shards[slot.shard].takeDeviceQuota(at: slot.position, limits: deviceQuota.limits, now: now)
            {
                return (.throttled(refused, deviceToken: shards[slot.shard].devices.token(at: slot.position)), [])
            }
            if let newDevice {
                insert(newDevice)
                if let apnsToken = newDevice.apnsToken { indexes.noteAPNsToken(apnsToken, in: projectID) }
                // Its first message counts against its limits (a limit is at least 1: never refused).
                let shard = DeviceShard.index(of: newDevice.token)
                if let deviceQuota, let position = shards[shard].devices.index(forKey: newDevice.token) {
                    _ = shards[shard].takeDeviceQuota(at: position, limits: deviceQuota.limits, now: now)
                }
            }
            return store(
                made, at: slot, target: target, origin: origin, requestBody: requestBody, now: now, configuration: configuration,
                quota: deviceQuota)
        } else {
            // A topic or condition send: every device's notification is made before any is
            // numbered or queued, so that a failed conversion leaves nothing behind. Each
            // delivery is queued as it is made ready, then the message is logged once, with the
            // range of its delivery numbers.
            var converted = [(shard: Int, position: DeviceTable.Index, content: DeliveryContent)]()
            converted.reserveCapacity(tokens.count)
            for token in tokens {
                // Read in place: a copy of the device held on would make its queue copy when it grows.
                let shard = DeviceShard.index(of: token)
                guard let position = shards[shard].devices.index(forKey: token) else { continue }
                do throws(Failure) {
                    // A device the conversion skips gets nothing.
                    if let content = try convert(for: shards[shard].devices.values[position]) {
                        converted.append((shard, position, content))
                    }
                } catch {
                    return (.rejected(error), [])
                }
            }
            guard let firstNumber = converted.isEmpty ? counters.upcomingDeliveryNumber : counters.takeDeliveryNumbers(converted.count)
            else { return (exhaustedNumbers, []) }
            let numbers = firstNumber..<firstNumber + converted.count
            var made = [Delivery]()
            made.reserveCapacity(converted.count)
            for (offset, (shard, position, content)) in converted.enumerated() {
                made.append(.pending(
                    content, number: firstNumber + offset, messageName: name,
                    device: shards[shard].devices.values[position], origin: origin, now: now))
            }
            var subscribersOfAll = [StreamSubscriber]()
            for delivery in made {
                let subscribers = shards[DeviceShard.index(of: delivery.token)].enqueue(
                    delivery, logSequence: log.nextSequence, now: now, configuration: configuration, quota: deviceQuota)
                if !subscribers.isEmpty { subscribersOfAll += subscribers }
            }
            log.append(
                name: name, origin: origin, sentAt: now, target: target, requestBody: requestBody, deliveryNumbers: numbers)
            return (.accepted(SentMessage(messageName: name, deliveryNumbers: numbers)), subscribersOfAll)
        }
    }

    /// Queues a send's one delivery, `made`, for the device at `slot` (nil: the device the
    /// delivery names, just inserted) and logs the send. Returns the outcome and the streams to
    /// drain once unlocked.
    private mutating func store<Failure: Error & Sendable>(
        _ made: consuming Delivery, at slot: (shard: Int, position: DeviceTable.Index)?, target: MessageTarget,
        origin: DeliveryOrigin,
        requestBody: [UInt8], now: Timestamp, configuration: PushCoreConfiguration, quota: DeviceQuota?
    ) -> (SendOutcome<Failure>, [StreamSubscriber]) {
        let name = made.messageName
        let numbers = made.number..<made.number + 1
        // A token target names the device's own copy of the token, so that the log adds none.
        // Chosen, not copied then replaced: a copy of the target retains its token and the
        // replacement releases it again.
        let loggedTarget: MessageTarget
        if case .token = target { loggedTarget = .token(made.token) } else { loggedTarget = target }
        // Moved in: otherwise the store keeps a copy and this one is freed.
        let shard = slot?.shard ?? DeviceShard.index(of: made.token)
        let notified = shards[shard].enqueue(
            consume made, at: slot?.position, logSequence: log.nextSequence, now: now, configuration: configuration,
            quota: quota)
        log.append(
            name: name, origin: origin, sentAt: now, target: loggedTarget, requestBody: requestBody, deliveryNumbers: numbers)
        return (.accepted(SentMessage(messageName: name, deliveryNumbers: numbers)), notified)
    }
}
