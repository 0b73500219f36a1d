extension CoreState {
    /// The locked part of `PushEmulatorCore.send`: resolves the target in `projectState`,
    /// converts, queues and logs. Returns the outcome and the streams to drain once unlocked.
    /// Static, with the parts of the state it changes passed apart: the project is changed in
    /// place in its dictionary, which a method of the whole state could not do.
    static func accept<Failure: Error & Sendable>(
        into projectState: inout ProjectState,
        projectsByAPNsToken: inout TokenTable<ProjectIDSet>,
        identifiers: inout IdentifierSource,
        configuration: PushCoreConfiguration,
        now: Timestamp,
        target: MessageTarget,
        origin: DeliveryOrigin,
        requestBody: [UInt8],
        implicitBundleID: String?,
        knownDevice: KnownDevice? = nil,
        makeNotification: (DeliveryContext) -> Result<APNsNotification, Failure>
    ) -> (SendOutcome<Failure>, [StreamSubscriber]) {
        var tokens = [String]()
        var newDevice: Device?
        // The position of a single stored target, valid until a device is inserted.
        var slot: DeviceTable.Index?
        // The device an APNs send found a moment ago, if it still has the APNs token: one lookup by
        // its token instead of two (APNs token, then device).
        let resolution: ProjectState.Resolution
        if let knownDevice, case .apnsToken(let given) = target,
            let position = projectState.position(ofDevice: knownDevice, withAPNsToken: given)
        {
            resolution = .device(position)
        } else {
            resolution = projectState.resolve(target, mode: configuration.tokenMode)
        }
        switch resolution {
        case .unreachable(let reason):
            return (.unreachable(reason), [])
        case .devices(let found):
            tokens = found
        case .device(let position):
            slot = position
        case .newDevice(let token, let apnsToken):
            newDevice = projectState.makeDevice(
                token: token ?? identifiers.unusedToken(in: projectState), apnsToken: apnsToken, platform: .ios,
                bundleID: implicitBundleID ?? configuration.defaultBundleID, appState: .background, now: now)
        }
        // Every counter the send moves is checked before any moves: a refused send changes nothing.
        let deliveryCount = slot != nil || newDevice != nil ? 1 : tokens.count
        if let exhausted = Counter.check(.messageID, at: identifiers.messageIDs.upcoming)
            ?? Counter.check(.deliveryNumber, at: identifiers.nextDeliveryNumber, toNumber: deliveryCount)
            ?? Counter.check(.logSequence, at: projectState.log.nextSequence)
            ?? (newDevice == nil ? nil : Counter.check(.deviceSequence, at: projectState.nextDeviceSequence))
        {
            return (.exhausted(exhausted), [])
        }
        let name = identifiers.messageIDs.makeName(project: projectState.projectID)
        let senderID = configuration.senderID ?? projectState.derivedSenderID
        // Deliveries are numbered as they are made; a failed conversion gives the numbers back.
        let numberBefore = identifiers.nextDeliveryNumber
        // Typed throws rather than a `Result` of the delivery: a generic `Result` is destroyed
        // through its type's metadata on every send.
        func make(for device: Device) throws(Failure) -> Delivery {
            let context = DeliveryContext(
                messageName: name, bundleID: device.bundleID, senderID: senderID,
                generatedAPNsID: RandomUUID(using: &identifiers.random), now: now)
            switch makeNotification(context) {
            case .success(let notification):
                return identifiers.makeDelivery(notification, messageName: name, device: device, origin: origin, now: now)
            case .failure(let failure):
                identifiers.nextDeliveryNumber = numberBefore
                throw failure
            }
        }
        // Each delivery is queued as it is made ready, then the message is logged once, with the
        // range of its delivery numbers: the tail below is every accepted send's.
        let numbers: Range<Int>
        let loggedTarget: MessageTarget
        let notified: [StreamSubscriber]
        if slot != nil || newDevice != nil {
            // A token send reaches one device: it goes without the arrays a topic send needs.
            let made: Delivery
            do throws(Failure) {
                if let newDevice {
                    made = try make(for: newDevice)
                } else {
                    // Not through the getter of `devices.values[slot]`, which copies the device.
                    made = try ProjectState.read(&projectState.devices.values[slot!]) {
                        device throws(Failure) in try make(for: device)
                    }
                }
            } catch {
                return (.rejected(error), [])
            }
            if let newDevice {
                projectState.insert(newDevice)
                if let apnsToken = newDevice.apnsToken { projectsByAPNsToken.insert(projectState.projectID, for: apnsToken) }
            }
            numbers = made.number..<made.number + 1
            // A token target names the device's own copy of the token, so that the log adds none.
            // Chosen, not copied then replaced: a copy of the target retains its token and the
            // replacement releases it again.
            if case .token = target { loggedTarget = .token(made.token) } else { loggedTarget = target }
            // Moved in: otherwise the store keeps a copy and this one is freed.
            notified = projectState.enqueue(
                consume made, at: slot, logSequence: projectState.log.nextSequence, now: now,
                configuration: configuration)
        } else {
            // A topic or condition send: every delivery is made before any is queued, so that a
            // failed conversion leaves nothing behind.
            var made = [Delivery]()
            made.reserveCapacity(tokens.count)
            for token in tokens {
                // Read in place: a copy of the device held on would make its queue copy when it grows.
                guard let position = projectState.devices.index(forKey: token) else { continue }
                do throws(Failure) {
                    made.append(try make(for: projectState.devices.values[position]))
                } catch {
                    return (.rejected(error), [])
                }
            }
            let firstNumber = made.first?.number ?? identifiers.nextDeliveryNumber
            numbers = firstNumber..<firstNumber + made.count
            loggedTarget = target
            var subscribersOfAll = [StreamSubscriber]()
            for delivery in made {
                let subscribers = projectState.enqueue(
                    delivery, logSequence: projectState.log.nextSequence, now: now, configuration: configuration)
                if !subscribers.isEmpty { subscribersOfAll += subscribers }
            }
            notified = subscribersOfAll
        }
        projectState.log.append(
            name: name, origin: origin, sentAt: now, target: loggedTarget,
            requestBody: requestBody, deliveryNumbers: numbers)
        return (.accepted(SentMessage(messageName: name, deliveryNumbers: numbers)), notified)
    }
}
