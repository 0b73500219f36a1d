/// A send to one stored device in two short steps under the project's lock, with the
/// conversion (most of a send's work under the lock otherwise) between them, outside it: sends
/// to different devices of one project then convert in parallel and take turns only to queue.
/// `PushEmulatorCore.accept` drives them.
extension ProjectState {
    /// What the first step found.
    enum Preparation {
        /// One stored device: convert under `context`, then `commit`.
        case convertOutside(PreparedSend)
        /// A topic, a condition or a device the send registers: the whole send runs under the
        /// lock (`accept`), so that all of its devices are converted before any is queued.
        case underLock
        case unreachable(UnreachableTarget)
        case exhausted(CounterExhausted)
    }

    /// A send to one stored device, its message id taken and its conversion's context made.
    struct PreparedSend {
        /// The device, found again by this key when the send is committed.
        let device: TokenKey
        /// Its registration's sequence: a device uninstalled and registered again with the token
        /// in between (perhaps with another APNs token) is another device, and the send starts
        /// again.
        let sequence: Int
        /// The device's bundle id that the conversion used: a device whose bundle id changed in
        /// between is converted again.
        let bundleID: String
        let context: DeliveryContext
    }

    /// The first step: resolves `target`; for one stored device, takes the message id and makes
    /// the conversion's context.
    mutating func prepare(
        target: MessageTarget, knownDevice: KnownDevice?, counters: IdentifierCounters,
        configuration: PushCoreConfiguration, now: Timestamp
    ) -> Preparation {
        let slot: DeviceTable.Index
        if let knownDevice, case .apnsToken(let given) = target,
            let position = position(ofDevice: knownDevice, withAPNsToken: given)
        {
            slot = position
        } else {
            switch resolve(target, mode: configuration.tokenMode) {
            case .unreachable(let reason): return .unreachable(reason)
            case .device(let position): slot = position
            case .devices, .newDevice: return .underLock
            }
        }
        if let exhausted = Counter.check(.messageID, at: counters.upcomingMessageID)
            ?? Counter.check(.deliveryNumber, at: counters.upcomingDeliveryNumber)
            ?? Counter.check(.logSequence, at: log.nextSequence)
        {
            return .exhausted(exhausted)
        }
        guard let messageID = counters.takeMessageID() else { return .exhausted(CounterExhausted(counter: .messageID)) }
        // Read in place: the getter of `devices.values[slot]` copies the device.
        let (bundleID, sequence) = ProjectState.read(&devices.values[slot]) { ($0.bundleID, $0.sequence) }
        let context = DeliveryContext(
            messageName: MessageName(project: projectID, id: messageID), bundleID: bundleID,
            senderID: configuration.senderID ?? derivedSenderID, generatedAPNsID: RandomUUID(using: &random), now: now)
        return .convertOutside(
            PreparedSend(device: devices.key(at: slot), sequence: sequence, bundleID: bundleID, context: context))
    }

    /// The second step: queues `notification` for the prepared device and logs the send; nil
    /// when the device is gone, registered anew or its bundle id changed since `prepare` (the
    /// send starts again).
    mutating func commit<Failure: Error & Sendable>(
        _ prepared: PreparedSend, _ notification: consuming APNsNotification, target: MessageTarget,
        origin: DeliveryOrigin, requestBody: [UInt8], counters: IdentifierCounters,
        configuration: PushCoreConfiguration
    ) -> (SendOutcome<Failure>, [StreamSubscriber])? {
        guard let slot = devices.index(forKey: prepared.device),
            ProjectState.read(&devices.values[slot], { $0.sequence == prepared.sequence && $0.bundleID == prepared.bundleID })
        else { return nil }
        if let exhausted = Counter.check(.logSequence, at: log.nextSequence) { return (.exhausted(exhausted), []) }
        guard let number = counters.takeDeliveryNumbers(1) else {
            return (.exhausted(CounterExhausted(counter: .deliveryNumber)), [])
        }
        let now = prepared.context.now
        let made = ProjectState.read(&devices.values[slot]) { device in
            Delivery.pending(
                notification, number: number, messageName: prepared.context.messageName, device: device, origin: origin,
                now: now)
        }
        return store(made, at: slot, target: target, origin: origin, requestBody: requestBody, now: now, configuration: configuration)
    }
}
