/// Everything the emulator keeps for one project: its devices with their deliveries and open
/// streams (in `DeviceShard`s), the message log, topics and faults. Plain value.
///
/// In a `ProjectSlot` each shard sits behind a lock of its own and `shards` is empty: the slot's
/// lock over this value guards only what is the project's as a whole (the log, topics, faults,
/// counters). An operation that needs the whole project (a registration, a topic send, a read
/// of the log) gets it with every shard moved in (`ProjectSlot.withWholeProject`).
struct ProjectState: Sendable {
    /// How a send's target resolves to devices.
    enum Resolution {
        case devices([String])
        /// One stored device, by its shard and position: the send reaches it without hashing its
        /// token again.
        case device(shard: Int, DeviceTable.Index)
        case newDevice(token: String?, apnsToken: String?)
        case unreachable(UnreachableTarget)
        /// The token of a device uninstalled a moment ago, which FCM and APNs still accept sends to
        /// (until its `unregisterAfter` passes): converted, logged, delivered to nobody. Its
        /// registration token, which names its device as it was (`lingeringDevice`), when known.
        case uninstalledLately(token: String?)
    }

    let projectID: String
    /// The sender id derived from the project id (used unless `--sender-id` sets one); every
    /// send writes it into its payload.
    let derivedSenderID: String
    /// The devices and what is theirs, shard `DeviceShard.index(of:)` of each token; empty while
    /// the shards are in their slot's locks.
    var shards: [DeviceShard]
    var log = MessageLog()
    /// Every topic that ever had a subscriber, by name.
    var topics: [String: TopicRecord] = [:]
    /// Faults injected into this project's sends (docs/faults.md).
    var faults = FaultTable()
    var nextTopicSequence = 1
    var nextSubscriptionSequence = 1
    /// The sequence of the next registered device (`insert` keeps it above every device's).
    var nextDeviceSequence = 1
    /// The source of this project's generated tokens and fault draws, and of its shards' seeds,
    /// seeded from the emulator's when the project is made (`ProjectDirectory`).
    var random = SeededRandomNumberGenerator(seed: 0)
    /// Set on what a removed project leaves in its slot (`ProjectSlot`).
    private(set) var isRemoved = false

    init(projectID: String) {
        self.projectID = projectID
        self.derivedSenderID = SenderID.derived(fromProjectID: projectID)
        shards = Array(repeating: DeviceShard(), count: DeviceShard.count)
    }

    /// What a removed project leaves in its slot: no shards, marked removed.
    static func removed(_ projectID: String) -> ProjectState {
        var project = ProjectState(projectID: projectID)
        project.shards = []
        project.isRemoved = true
        return project
    }

    /// The stored device with `token`, if any.
    func device(_ token: String) -> Device? {
        shards[DeviceShard.index(of: token)].devices[token]
    }

    // The shards are read by index, one table at a time, in the loops below: iterating them, or
    // `shards.flatMap(\.devices)`, copies each whole shard, retaining and releasing its every
    // table, which an export or import of many projects paid 16 times each.

    /// Devices in registration order.
    var devicesInOrder: [Device] {
        var all = [Device]()
        for index in shards.indices { all.append(contentsOf: shards[index].devices.values) }
        return all.sorted { $0.sequence < $1.sequence }
    }

    /// When the device with `token` was uninstalled, if it was and is not registered again.
    func uninstalledAt(_ token: String) -> Timestamp? {
        shards[DeviceShard.index(of: token)].uninstalledTokens[token]
    }

    /// The delayed collapsible messages whose release time no sweep has reached
    /// (`DeviceShard.held`).
    var heldCount: Int {
        shards.reduce(0) { $0 + $1.held.count }
    }

    /// Every open stream of the project's devices.
    var openStreams: [StreamSubscriber] {
        var all = [StreamSubscriber]()
        for index in shards.indices {
            for subscribers in shards[index].streams.values { all += subscribers }
        }
        return all
    }

    /// The APNs tokens of the project's devices, stored or uninstalled.
    var apnsTokens: [String] {
        var all = [String]()
        for index in shards.indices {
            all += shards[index].tokenByAPNsToken.tokens
            all += shards[index].uninstalledAPNsTokens.tokens
        }
        return all
    }

    /// Every shard's deliveries, read together.
    var deliveries: ProjectDeliveries {
        var stores = [DeliveryStore]()
        stores.reserveCapacity(shards.count)
        for index in shards.indices where !shards[index].deliveries.isEmpty { stores.append(shards[index].deliveries) }
        return ProjectDeliveries(stores)
    }

    func resolve(_ target: MessageTarget, mode: TokenMode, now: Timestamp) -> Resolution {
        switch target {
        case .token(let token), .fid(let token):
            let shard = DeviceShard.index(of: token)
            if let position = shards[shard].devices.index(forKey: token) { return .device(shard: shard, position) }
            if let at = shards[shard].uninstalledTokens[token] {
                return at > now ? .uninstalledLately(token: token) : .unreachable(.unregistered(since: at))
            }
            guard mode == .lenient, RegistrationToken.isWellFormed(token) else { return .unreachable(.invalidRegistration) }
            return .newDevice(token: token, apnsToken: nil)
        case .apnsToken(let given):
            let apnsToken = APNsDeviceToken.normalized(given)
            let apnsShard = DeviceShard.index(of: apnsToken)
            if let token = shards[apnsShard].tokenByAPNsToken[apnsToken]?.token {
                let shard = DeviceShard.index(of: token)
                if let position = shards[shard].devices.index(forKey: token) { return .device(shard: shard, position) }
            }
            if let at = shards[apnsShard].uninstalledAPNsTokens[apnsToken] {
                return at > now
                    ? .uninstalledLately(token: shards[apnsShard].lingeringAPNsOwners[apnsToken]?.token)
                    : .unreachable(.unregistered(since: at))
            }
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

    /// The device of `token` as it was when it was uninstalled, while sends to it are still
    /// accepted (see `uninstall`).
    func lingeringDevice(_ token: String) -> Device? {
        shards[DeviceShard.index(of: token)].lingeringDevices[token]
    }

    /// Checks a registration against the devices present; `token` is the one to use.
    func check(_ registration: DeviceRegistration, token: String) -> DeviceRegistrationError? {
        guard RegistrationToken.isWellFormed(token) else { return .malformedToken }
        guard device(token) == nil else { return .tokenInUse }
        if let appID = registration.bundleID, let problem = DeviceRegistration.appIDProblem(appID, platform: registration.platform) {
            return problem
        }
        if let apnsToken = registration.apnsToken {
            guard registration.platform == .ios else { return .apnsTokenNotApple(registration.platform) }
            guard APNsDeviceToken.isWellFormed(apnsToken) else { return .malformedAPNsToken }
            let normalized = APNsDeviceToken.normalized(apnsToken)
            guard shards[DeviceShard.index(of: normalized)].tokenByAPNsToken[normalized] == nil else { return .apnsTokenInUse }
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
        let shard = DeviceShard.index(of: device.token)
        if !shards[shard].messageLogSequencesOfUninstalled.isEmpty,
           let earlier = shards[shard].messageLogSequencesOfUninstalled.removeValue(forKey: device.token) {
            device.messageLogSequences = earlier
        }
        shards[shard].uninstalledTokens[device.token] = nil
        shards[shard].lingeringDevices[device.token] = nil
        if let apnsToken = device.apnsToken {
            let apnsShard = DeviceShard.index(of: apnsToken)
            shards[apnsShard].tokenByAPNsToken[apnsToken] = APNsTokenOwner(
                token: device.token, bundleID: device.bundleID, environment: device.apnsEnvironment)
            shards[apnsShard].uninstalledAPNsTokens[apnsToken] = nil
            shards[apnsShard].lingeringAPNsOwners[apnsToken] = nil
        }
        nextDeviceSequence = max(nextDeviceSequence, device.sequence) + 1
        shards[shard].scheduleTokenExpiry(of: device)
        shards[shard].devices[device.token] = device
    }

    /// Uninstalls the Android devices whose token expired by `now` (270 days without a
    /// connection, docs/android.md): sends to them answer UNREGISTERED from the moment it
    /// expired, their queued messages are dropped and their subscriptions gone, as FCM's clean-up
    /// of expired tokens does. Each whole-project turn runs it first; it costs a look at each
    /// shard's earliest expiry when none is due.
    mutating func expireInactiveTokens(at now: Timestamp) {
        for index in shards.indices where shards[index].tokenExpiries.min.map({ $0.at <= now }) ?? false {
            for token in shards[index].dueExpiredTokens(at: now) {
                guard let expiredAt = shards[index].devices[token]?.tokenExpiresAt else { continue }
                // As of the moment it expired, which may be before this call noticed it.
                _ = uninstall(
                    token: token, now: expiredAt, unregisteredFrom: expiredAt,
                    reason: "token expired: no connection for 270 days")
            }
        }
    }

    /// Deletes a device (the app was uninstalled): its stored deliveries are dropped and later
    /// sends to it are UNREGISTERED. Returns its open streams, to be closed outside the lock.
    /// `unregisteredFrom`: when sends to its tokens start being answered UNREGISTERED and 410
    /// (`now`, or later for a device whose `unregisterAfter` is set); until then they are accepted
    /// and reach nobody.
    mutating func uninstall(
        token: String, now: Timestamp, unregisteredFrom: Timestamp? = nil, reason: String = "uninstalled"
    ) -> [StreamSubscriber]? {
        let shard = DeviceShard.index(of: token)
        guard let device = shards[shard].devices.removeValue(forKey: token) else { return nil }
        let unregisteredFrom = unregisteredFrom ?? now
        for topic in device.subscriptions.keys { topics[topic]?.subscribers.remove(token) }
        for number in device.pendingDeliveryNumbers {
            shards[shard].deliveries[number]?.move(to: .dropped, at: now, reason: reason)
        }
        shards[shard].uninstalledTokens[token] = unregisteredFrom
        _ = shards[shard].quotaUse.removeValue(forKey: token)
        if unregisteredFrom > now {
            var lingering = device
            lingering.pendingDeliveryNumbers = ChunkedArray()
            lingering.messageLogSequences = ChunkedArray()
            lingering.subscriptions = [:]
            lingering.handedOver = [:]
            lingering.owedDeletion = nil
            lingering.isConnected = false
            shards[shard].lingeringDevices[token] = lingering
        }
        if !device.messageLogSequences.isEmpty {
            shards[shard].messageLogSequencesOfUninstalled[token] = device.messageLogSequences
        }
        if let apnsToken = device.apnsToken {
            let apnsShard = DeviceShard.index(of: apnsToken)
            shards[apnsShard].tokenByAPNsToken[apnsToken] = nil
            shards[apnsShard].uninstalledAPNsTokens[apnsToken] = unregisteredFrom
            if unregisteredFrom > now {
                shards[apnsShard].lingeringAPNsOwners[apnsToken] = APNsTokenOwner(
                    token: token, bundleID: device.bundleID, environment: device.apnsEnvironment)
            }
        }
        return shards[shard].streams.removeValue(forKey: token) ?? []
    }

    /// Changes a stored device's bundle id and APNs environment, those given (`.some(nil)`: either
    /// environment), in its APNs token's entry too; false when there is no device with `token`.
    mutating func changeAPNsIdentity(ofDevice token: String, bundleID: String?, environment: APNsEnvironment??) -> Bool {
        let shard = DeviceShard.index(of: token)
        guard shards[shard].devices[token] != nil else { return false }
        if let bundleID { shards[shard].devices[token]!.bundleID = bundleID }
        if let environment { shards[shard].devices[token]!.apnsEnvironment = environment }
        if let apnsToken = shards[shard].devices[token]!.apnsToken {
            let apnsShard = DeviceShard.index(of: apnsToken)
            if let bundleID { shards[apnsShard].tokenByAPNsToken[apnsToken]?.bundleID = bundleID }
            if let environment { shards[apnsShard].tokenByAPNsToken[apnsToken]?.environment = environment }
        }
        return true
    }

    /// Expires what is due: Android tokens (`expireInactiveTokens`), then the deliveries of every
    /// shard (`DeviceShard.expireDue(at:)`).
    mutating func expireDue(at now: Timestamp) {
        expireInactiveTokens(at: now)
        for shard in shards.indices { shards[shard].expireDue(at: now) }
    }

    /// The sequences of the message log's entries that reached the device with `token`, stored
    /// or uninstalled, in log order (empty for a token the log never reached).
    func messageLogSequences(of token: String) -> ChunkedArray<Int> {
        shards[DeviceShard.index(of: token)].messageLogSequences(of: token)
    }

    /// Empties the message log and every device's sequences of it.
    mutating func clearMessageLog() {
        log.clear()
        for shard in shards.indices {
            shards[shard].messageLogSequencesOfUninstalled.removeAll()
            // By position, in place: a loop over `devices.values.indices` would hold a copy of the
            // table and make the first change copy every device.
            var slot = shards[shard].devices.values.startIndex
            while slot != shards[shard].devices.values.endIndex {
                shards[shard].devices.values[slot].messageLogSequences.removeAll()
                slot = shards[shard].devices.values.index(after: slot)
            }
        }
    }

    /// Logs an accepted send of one delivery, taking its delivery number from `counters` (under
    /// the lock of the device's shard, so that each shard's deliveries are numbered in the order
    /// they are stored). Returns the number and the entry's sequence, or the counter exhausted.
    mutating func logSend(
        name: MessageName, origin: DeliveryOrigin, sentAt: Timestamp, target: MessageTarget, requestBody: [UInt8],
        counters: IdentifierCounters
    ) -> Result<(number: Int, logSequence: Int), CounterExhausted> {
        if let exhausted = Counter.check(.logSequence, at: log.nextSequence) { return .failure(exhausted) }
        guard let number = counters.takeDeliveryNumbers(1) else { return .failure(CounterExhausted(counter: .deliveryNumber)) }
        let sequence = log.nextSequence
        log.append(
            name: name, origin: origin, sentAt: sentAt, target: target, requestBody: requestBody,
            deliveryNumbers: number..<number + 1)
        return .success((number, sequence))
    }

    /// A generated registration token no device of the project uses.
    mutating func unusedToken() -> String {
        while true {
            let token = RegistrationToken.generate(using: &random)
            if device(token) == nil, uninstalledAt(token) == nil { return token }
        }
    }

    /// Why a device cannot be found by token.
    func lookupError(token: String) -> DeviceLookupError {
        shards[DeviceShard.index(of: token)].lookupError(token: token)
    }
}
