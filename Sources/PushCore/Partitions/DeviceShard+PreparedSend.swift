/// A send to one stored device in two short steps under its shard's lock, with the conversion
/// (most of a send's work) between them, outside every lock: sends to devices of one project
/// convert in parallel, and queue in parallel when their devices are in different shards; they
/// meet only on the project's message log, taken for the moment of logging.
/// `PushEmulatorCore.accept` drives them.
extension DeviceShard {
    /// What the first step found.
    enum Preparation {
        /// One stored device: convert under `context`, then `commit`.
        case convertOutside(PreparedSend)
        /// A device the send registers (or an APNs token whose device moved): the whole send
        /// runs with the whole project locked (`ProjectState.accept`).
        case wholeProject
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

    /// The first step, for the device of registration token `key` (in this shard): takes the
    /// message id and makes the conversion's context. `apnsToken`: the APNs token the send
    /// names, which the device must still have; `exhaustedLog`: whether the project's log is
    /// full (`ProjectSlot.exhaustedLog`), checked with the other counters before any moves.
    mutating func prepare(
        device key: TokenKey, apnsToken: String?, projectID: String, senderID: String, counters: IdentifierCounters,
        exhaustedLog: CounterExhausted?, configuration: PushCoreConfiguration, now: Timestamp
    ) -> Preparation {
        let slot: DeviceTable.Index
        if let apnsToken {
            guard let position = position(ofDevice: key, withAPNsToken: apnsToken) else {
                return .wholeProject
            }
            slot = position
        } else if let position = devices.index(forKey: key) {
            slot = position
        } else if let at = uninstalledTokens[key.token] {
            // Still accepted a while after the uninstall: the whole-project path logs it.
            return at > now ? .wholeProject : .unreachable(.unregistered(since: at))
        } else if configuration.tokenMode == .lenient, RegistrationToken.isWellFormed(key.token) {
            return .wholeProject
        } else {
            return .unreachable(.invalidRegistration)
        }
        // An expired Android token (docs/android.md): the whole-project path uninstalls the device
        // and answers UNREGISTERED.
        if Self.read(&devices.values[slot], { $0.tokenExpiresAt.map { $0 <= now } ?? false }) { return .wholeProject }
        if let exhausted = Counter.check(.messageID, at: counters.upcomingMessageID)
            ?? Counter.check(.deliveryNumber, at: counters.upcomingDeliveryNumber)
            ?? exhaustedLog
        {
            return .exhausted(exhausted)
        }
        guard let messageID = counters.takeMessageID() else { return .exhausted(CounterExhausted(counter: .messageID)) }
        // Read in place: the getter of `devices.values[slot]` copies the device.
        let (bundleID, sequence, app) = Self.read(&devices.values[slot]) { ($0.bundleID, $0.sequence, $0.app) }
        let context = DeliveryContext(
            messageName: MessageName(project: projectID, id: messageID), bundleID: bundleID,
            senderID: senderID, generatedAPNsID: RandomUUID(using: &random), now: now, app: app)
        return .convertOutside(
            PreparedSend(device: devices.key(at: slot), sequence: sequence, bundleID: bundleID, context: context))
    }

    /// The second step: logs the send through `log` (run under the project's log lock: it
    /// takes the delivery number and the log sequence, or says which counter is exhausted) and
    /// queues `content` for the prepared device, once the per-device limits of `deviceQuota`
    /// (nil: none) let it. Nil when the device is gone, registered anew or its bundle id or
    /// settings changed since `prepare` (the send starts again).
    mutating func commit<Failure: Error & Sendable>(
        _ prepared: PreparedSend, _ content: consuming DeliveryContent, target: MessageTarget,
        origin: DeliveryOrigin, configuration: PushCoreConfiguration, deviceQuota: DeviceQuota?,
        log: (_ loggedTarget: MessageTarget) -> Result<(number: Int, logSequence: Int), CounterExhausted>
    ) -> (SendOutcome<Failure>, [StreamSubscriber])? {
        guard let slot = devices.index(forKey: prepared.device),
            Self.read(&devices.values[slot], {
                $0.sequence == prepared.sequence && $0.bundleID == prepared.bundleID && $0.app == prepared.context.app
            })
        else { return nil }
        if let deviceQuota, let refused = takeDeviceQuota(at: slot, limits: deviceQuota.limits, now: prepared.context.now) {
            return (.throttled(refused, deviceToken: devices.token(at: slot)), [])
        }
        // A token target names the device's own copy of the token, so that the log adds none.
        // Chosen, not copied then replaced: a copy of the target retains its token and the
        // replacement releases it again.
        let loggedTarget: MessageTarget
        if case .token = target { loggedTarget = .token(devices.token(at: slot)) } else { loggedTarget = target }
        let number: Int
        let logSequence: Int
        switch log(loggedTarget) {
        case .failure(let exhausted): return (.exhausted(exhausted), [])
        case .success(let logged): (number, logSequence) = logged
        }
        let now = prepared.context.now
        let name = prepared.context.messageName
        let made = Self.read(&devices.values[slot]) { device in
            Delivery.pending(content, number: number, messageName: name, device: device, origin: origin, now: now)
        }
        // Moved in: otherwise the store keeps a copy and this one is freed.
        let notified = enqueue(
            consume made, at: slot, logSequence: logSequence, now: now, configuration: configuration, quota: deviceQuota)
        return (.accepted(SentMessage(messageName: name, deliveryNumbers: number..<number + 1)), notified)
    }
}
