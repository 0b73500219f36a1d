/// Everything the emulator keeps for one project: devices, their deliveries, the message log
/// and open streams. Plain value; its `ProjectSlot` guards it with the project's own lock.
struct ProjectState: Sendable {
    /// How a send's target resolves to devices.
    enum Resolution {
        case devices([String])
        /// One stored device, by its position: the send reaches it without hashing its token again.
        case device(DeviceTable.Index)
        case newDevice(token: String?, apnsToken: String?)
        case unreachable(UnreachableTarget)
    }

    let projectID: String
    /// The sender id derived from the project id (used unless `--sender-id` sets one); every
    /// send writes it into its payload.
    let derivedSenderID: String
    var devices = DeviceTable()
    var tokenByAPNsToken = TokenTable<String>()
    var uninstalledTokens = TokenTable<Timestamp>()
    var uninstalledAPNsTokens = TokenTable<Timestamp>()
    /// The message log sequences of uninstalled devices (`Device.messageLogSequences`), by token:
    /// their messages still match the log's `token` filter, and a device registered again with
    /// the token carries on with them.
    var messageLogSequencesOfUninstalled = TokenTable<ChunkedArray<Int>>()
    var deliveries = DeliveryStore()
    /// The expiry of every stored delivery, earliest first, so that a read expires what is due
    /// without visiting the rest. Entries of deliveries that have left their queue since
    /// (delivered, collapsed, deleted, dropped) stay until they come up and are skipped then.
    var expiries = MinHeap<PendingExpiry>()
    var log = MessageLog()
    var streams: [String: [StreamSubscriber]] = [:]
    /// Every topic that ever had a subscriber, by name.
    var topics: [String: TopicRecord] = [:]
    /// Faults injected into this project's sends (docs/faults.md).
    var faults = FaultTable()
    var nextTopicSequence = 1
    var nextSubscriptionSequence = 1
    /// The sequence of the next registered device (`insert` keeps it above every device's).
    var nextDeviceSequence = 1
    /// The source of this project's generated tokens, `apns-id`s and fault draws, seeded from
    /// the emulator's when the project is made (`ProjectDirectory`).
    var random = SeededRandomNumberGenerator(seed: 0)

    init(projectID: String) {
        self.projectID = projectID
        self.derivedSenderID = SenderID.derived(fromProjectID: projectID)
    }

    /// Devices in registration order.
    var devicesInOrder: [Device] { devices.values.sorted { $0.sequence < $1.sequence } }

    func resolve(_ target: MessageTarget, mode: TokenMode) -> Resolution {
        switch target {
        case .token(let token), .fid(let token):
            if let slot = devices.index(forKey: token) { return .device(slot) }
            if let at = uninstalledTokens[token] { return .unreachable(.unregistered(since: at)) }
            guard mode == .lenient, RegistrationToken.isWellFormed(token) else { return .unreachable(.invalidRegistration) }
            return .newDevice(token: token, apnsToken: nil)
        case .apnsToken(let given):
            let apnsToken = APNsDeviceToken.normalized(given)
            if let token = tokenByAPNsToken[apnsToken], let slot = devices.index(forKey: token) { return .device(slot) }
            if let at = uninstalledAPNsTokens[apnsToken] { return .unreachable(.unregistered(since: at)) }
            guard mode == .lenient, APNsDeviceToken.isWellFormed(apnsToken) else { return .unreachable(.invalidRegistration) }
            return .newDevice(token: nil, apnsToken: apnsToken)
        case .topic(let topic):
            return .devices(subscribers(of: topic))
        case .condition(let text):
            // Validation parsed it already; an unparsable condition reaches nobody.
            guard let condition = try? TopicCondition(parsing: text) else { return .devices([]) }
            return .devices(devicesInOrder.filter { device in
                condition.matches { device.subscriptions[$0] != nil }
            }.map(\.token))
        }
    }

    /// Where `device` is, when it has the APNs token `apnsToken`; nil otherwise. `mutating` only
    /// so that the device is read in place.
    mutating func position(ofDevice device: KnownDevice, withAPNsToken apnsToken: String) -> DeviceTable.Index? {
        guard let position = devices.index(forKey: device.key),
            Self.read(&devices.values[position], { $0.apnsToken == apnsToken })
        else { return nil }
        return position
    }

    /// Checks a registration against the devices present; `token` is the one to use.
    func check(_ registration: DeviceRegistration, token: String) -> DeviceRegistrationError? {
        guard RegistrationToken.isWellFormed(token) else { return .malformedToken }
        guard devices[token] == nil else { return .tokenInUse }
        if let apnsToken = registration.apnsToken {
            guard APNsDeviceToken.isWellFormed(apnsToken) else { return .malformedAPNsToken }
            guard tokenByAPNsToken[APNsDeviceToken.normalized(apnsToken)] == nil else { return .apnsTokenInUse }
        }
        return Counter.check(.deviceSequence, at: nextDeviceSequence).map(DeviceRegistrationError.counterExhausted)
    }

    /// A device that is not stored yet; `insert` stores it.
    func makeDevice(
        token: String, apnsToken: String?, platform: Platform, bundleID: String, appState: AppState, now: Timestamp
    ) -> Device {
        Device(
            platform: platform, bundleID: bundleID, token: token, apnsToken: apnsToken.map(APNsDeviceToken.normalized),
            appState: appState, registeredAt: now, sequence: nextDeviceSequence)
    }

    /// Stores a new device; a token or APNs token of an uninstalled device becomes valid again,
    /// and the messages the log holds for the token stay found by it.
    mutating func insert(_ device: Device) {
        var device = device
        if !messageLogSequencesOfUninstalled.isEmpty,
           let earlier = messageLogSequencesOfUninstalled.removeValue(forKey: device.token) {
            device.messageLogSequences = earlier
        }
        uninstalledTokens[device.token] = nil
        if let apnsToken = device.apnsToken {
            tokenByAPNsToken[apnsToken] = device.token
            uninstalledAPNsTokens[apnsToken] = nil
        }
        nextDeviceSequence = max(nextDeviceSequence, device.sequence) + 1
        devices[device.token] = device
    }

    /// Deletes a device (the app was uninstalled): its stored deliveries are dropped and later
    /// sends to it are UNREGISTERED. Returns its open streams, to be closed outside the lock.
    mutating func uninstall(token: String, now: Timestamp) -> [StreamSubscriber]? {
        guard let device = devices.removeValue(forKey: token) else { return nil }
        for topic in device.subscriptions.keys { topics[topic]?.subscribers.remove(token) }
        for number in device.pendingDeliveryNumbers {
            deliveries[number]?.move(to: .dropped, at: now, reason: "uninstalled")
        }
        uninstalledTokens[token] = now
        if !device.messageLogSequences.isEmpty { messageLogSequencesOfUninstalled[token] = device.messageLogSequences }
        if let apnsToken = device.apnsToken {
            tokenByAPNsToken[apnsToken] = nil
            uninstalledAPNsTokens[apnsToken] = now
        }
        return streams.removeValue(forKey: token) ?? []
    }

    /// The sequences of the message log's entries that reached the device with `token`, stored
    /// or uninstalled, in log order (empty for a token the log never reached).
    func messageLogSequences(of token: String) -> ChunkedArray<Int> {
        devices[token]?.messageLogSequences ?? messageLogSequencesOfUninstalled[token] ?? ChunkedArray()
    }

    /// Empties the message log and every device's sequences of it.
    mutating func clearMessageLog() {
        log.clear()
        messageLogSequencesOfUninstalled.removeAll()
        // By position, in place: a loop over `devices.values.indices` would hold a copy of the
        // table and make the first change copy every device.
        var slot = devices.values.startIndex
        while slot != devices.values.endIndex {
            devices.values[slot].messageLogSequences.removeAll()
            slot = devices.values.index(after: slot)
        }
    }

    /// A generated registration token no device of the project uses.
    mutating func unusedToken() -> String {
        while true {
            let token = RegistrationToken.generate(using: &random)
            if devices[token] == nil, uninstalledTokens[token] == nil { return token }
        }
    }

    /// Why a device cannot be found by token.
    func lookupError(token: String) -> DeviceLookupError {
        uninstalledTokens[token].map { .uninstalled(at: $0) } ?? .notFound
    }
}
