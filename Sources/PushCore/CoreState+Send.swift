extension CoreState {
    /// The locked part of `PushEmulatorCore.send`: resolves the target in `projectState`,
    /// converts, queues and logs. Returns the outcome and the streams to drain once unlocked.
    mutating func accept<Failure: Error & Sendable>(
        into projectState: inout ProjectState,
        target: MessageTarget,
        origin: DeliveryOrigin,
        requestBody: [UInt8],
        implicitBundleID: String?,
        makeNotification: (DeliveryContext) -> Result<APNsNotification, Failure>
    ) -> (SendOutcome<Failure>, [StreamSubscriber]) {
        let now = clock.now
        let project = projectState.projectID
        var targets = [Device]()
        var newDevice: Device?
        // The position of a single stored target, valid until a device is inserted.
        var slot: Dictionary<String, Device>.Index?
        switch projectState.resolve(target, mode: configuration.tokenMode) {
        case .unregistered(let since):
            return (.unregistered(since: since), [])
        case .invalid:
            return (.invalidRegistration, [])
        case .devices(let tokens):
            targets = tokens.compactMap { projectState.devices[$0] }
        case .device(let position):
            slot = position
            targets = [projectState.devices.values[position]]
        case .newDevice(let token, let apnsToken):
            let device = projectState.makeDevice(
                token: token ?? unusedToken(in: projectState), apnsToken: apnsToken, platform: .ios,
                bundleID: implicitBundleID ?? configuration.defaultBundleID, appState: .background, now: now)
            newDevice = device
            targets = [device]
        }
        let messageID = messageIDs.make()
        let name = MessageName.make(project: project, messageID: messageID)
        let senderID = configuration.senderID ?? projectState.derivedSenderID
        // Deliveries are numbered as they are made; a failed conversion gives the numbers back.
        let numberBefore = nextDeliveryNumber
        var made = [Delivery]()
        made.reserveCapacity(targets.count)
        for device in targets {
            let context = DeliveryContext(
                messageID: messageID, messageName: name, device: device, senderID: senderID,
                apnsID: RandomUUID.make(using: &random), now: now)
            switch makeNotification(context) {
            case .success(let notification):
                made.append(makeDelivery(notification, messageName: name, device: device, origin: origin, now: now))
            case .failure(let failure):
                nextDeliveryNumber = numberBefore
                return (.rejected(failure), [])
            }
        }
        // Copies of the devices must be gone before their queues grow, or each append copies the queue.
        targets = []
        if let newDevice { projectState.insert(newDevice) }
        var deliveries = [Delivery]()
        deliveries.reserveCapacity(made.count)
        var notified = [StreamSubscriber]()
        for delivery in made {
            let (stored, subscribers) = projectState.enqueue(delivery, at: slot, now: now, configuration: configuration)
            deliveries.append(stored)
            if !subscribers.isEmpty { notified += subscribers }
        }
        let firstNumber = deliveries.first?.number ?? nextDeliveryNumber
        // A token target names the device's own copy of the token, so that the log adds none.
        var loggedTarget = target
        if case .token = target, deliveries.count == 1 { loggedTarget = .token(deliveries[0].token) }
        projectState.log.append(
            messageID: messageID, name: name, origin: origin, sentAt: now, target: loggedTarget,
            requestBody: requestBody, deliveryNumbers: firstNumber..<firstNumber + deliveries.count)
        return (.accepted(SentMessage(messageID: messageID, name: name, deliveries: deliveries)), notified)
    }
}
