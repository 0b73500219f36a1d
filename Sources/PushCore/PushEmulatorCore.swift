import ByteCoding
import Locking

/// The emulator's domain: devices, queues, the message log and the clock. Every HTTP route
/// calls into this; listeners of open streams are called after every lock is released, so
/// they may call back in.
///
/// Partitioned so that unrelated work never waits on one lock (docs/ARCHITECTURE.md,
/// "Concurrency: what is locked where"): each project behind locks of its own (`ProjectSlot`:
/// one per shard of its devices, one for its log, topics and faults), found in a striped
/// `ProjectDirectory`; message ids, delivery numbers and the clock's offset in
/// atomics; the indexes across projects behind a lock that only registrations, faults and
/// pushes to another project's device take.
public final class PushEmulatorCore: Sendable {
    /// The settings the emulator runs with.
    public let configuration: PushCoreConfiguration
    let sharedClock: SharedClock
    let counters: IdentifierCounters
    let directory: ProjectDirectory
    let indexes: CrossProjectIndexes
    /// Faults fired since the start, by the API of the send they answered (kept through resets:
    /// `/metrics` counts them). Faults fire rarely: an atomic each is enough.
    let faultsFired: FaultsFired
    /// The quotas' counts since the start (`/metrics` shows them).
    let quotaCounters = QuotaCounters()
    /// Who hears of deliveries collapsed, expired, deleted or dropped (the event feed).
    public let deliveryChanges = DeliveryChangeListener()
    /// Held while a state export is built and serialized (`exportState`, `exportStateBytes`):
    /// each holds a tree the size of the state until it is serialized, so exports asked for on
    /// several loops at once are made one after another, not side by side (docs/performance.md,
    /// `slow-export`). No request but an export takes it, and it is taken before any other lock.
    let exportBuilding = Locked(())

    /// Makes an empty emulator.
    /// - Parameters:
    ///   - wallTime: milliseconds since the epoch (the CLI passes the system time; tests a fixed one).
    ///   - random: the source that seeds each project's generated tokens and `apns-id`s. By
    ///     default a fast generator seeded once from the system's: a system call per `apns-id`
    ///     would cost more than the rest of a send, and these ids need to be unique, not secret.
    public init(
        configuration: PushCoreConfiguration = PushCoreConfiguration(),
        wallTime: @escaping @Sendable () -> Int64,
        random: some RandomNumberGenerator & Sendable = SeededRandomNumberGenerator(
            seed: UInt64.random(in: .min ... .max))
    ) {
        self.configuration = configuration
        sharedClock = SharedClock(wallTime: wallTime)
        counters = IdentifierCounters(wallTimeMilliseconds: wallTime())
        directory = ProjectDirectory(random: random, quotaLimits: configuration.quotaLimits, changes: deliveryChanges)
        indexes = CrossProjectIndexes()
        faultsFired = FaultsFired()
    }

    /// Runs `body` on the whole of project `id` (`ProjectSlot.withWholeProject`: every lock of
    /// the project held), made (empty) when there is none.
    func withProject<Result>(creating id: String, _ body: (inout ProjectState) -> Result) -> Result {
        let now = self.now
        while true {
            // Nil only when the project was removed between finding its slot and locking it.
            if let result = directory.slot(creating: id).withWholeProject({ projectState in
                projectState.expireInactiveTokens(at: now)
                return body(&projectState)
            }) {
                return result
            }
        }
    }

    /// Runs `body` on the whole of project `id` (every lock of the project held); nil when there
    /// is no such project.
    func withProject<Result>(_ id: String, _ body: (inout ProjectState) -> Result) -> Result? {
        let now = self.now
        while let slot = directory.slot(id) {
            if let result = slot.withWholeProject({ projectState in
                projectState.expireInactiveTokens(at: now)
                return body(&projectState)
            }) {
                return result
            }
        }
        return nil
    }

    /// Uninstalls the device of `token` if its token has expired (docs/android.md, "Token
    /// expiry"), for a call that then takes only its shard: the uninstall needs the whole project.
    func expireTokenIfDue(project: String, token: String) {
        let now = self.now
        if withShard(of: token, in: project, { $0.hasExpiredToken(token, at: now) }) == true {
            _ = withProject(project) { _ in }
        }
    }

    /// Runs `body` on the log, topics and faults of project `id` (`ProjectSlot.withProjectPart`:
    /// no shard, so `shards` is empty); nil when there is no such project.
    func withProjectPart<Result>(_ id: String, _ body: (inout ProjectState) -> Result) -> Result? {
        while let slot = directory.slot(id) {
            if let result = slot.withProjectPart(body) { return result }
        }
        return nil
    }

    /// Runs `body` on the shard of `token` in project `id`, with that shard's lock alone held;
    /// nil when there is no such project.
    func withShard<Result>(of token: String, in id: String, _ body: (inout DeviceShard) -> Result) -> Result? {
        let index = DeviceShard.index(of: token)
        while let slot = directory.slot(id) {
            if let result = slot.withShard(index, body) { return result }
        }
        return nil
    }

    // MARK: Clock

    /// The emulator's current time.
    public var now: Timestamp { sharedClock.now }

    /// The clock as `GET /emulator/v1/clock` shows it.
    public var clock: EmulatorClock { sharedClock.value }

    /// Moves the clock by `seconds`; returns the new time.
    @discardableResult
    public func advanceClock(seconds: Int64) -> Timestamp {
        let now = sharedClock.advance(seconds: seconds)
        releaseHeldDeliveries()
        return now
    }

    /// Returns the clock to wall time.
    public func resetClock() {
        sharedClock.set(offsetSeconds: 0)
        releaseHeldDeliveries()
    }

    /// The numeric sender id of `project` (`--sender-id`, or derived from the project id).
    public func senderID(forProject project: String) -> String {
        configuration.senderID ?? SenderID.derived(fromProjectID: project)
    }

    // MARK: Devices

    /// Registers a device (`POST .../devices`); a token is generated when none is given.
    public func registerDevice(project: String, _ registration: DeviceRegistration) -> Result<Device, DeviceRegistrationError> {
        let now = self.now
        return withProject(creating: project) { projectState in
            let token = registration.token ?? projectState.unusedToken()
            if let error = projectState.check(registration, token: token) { return .failure(error) }
            let defaultAppID = registration.platform == .web ? DeviceRegistration.defaultWebOrigin : configuration.defaultBundleID
            var device = projectState.makeDevice(
                token: token, apnsToken: registration.apnsToken, platform: registration.platform,
                bundleID: registration.bundleID ?? defaultAppID,
                appState: registration.appState, now: now)
            device.hasNotificationServiceExtension = registration.hasNotificationServiceExtension
            device.androidChannels = registration.androidChannels
            device.hasBackgroundHandler = registration.hasBackgroundHandler
            device.apnsEnvironment = registration.apnsEnvironment
            device.unregisterAfterSeconds = registration.unregisterAfterSeconds
            projectState.insert(device)
            if let apnsToken = device.apnsToken { indexes.noteAPNsToken(apnsToken, in: project) }
            return .success(device)
        }
    }

    /// A page of the project's devices, in registration order.
    public func devices(project: String, page: PageRequest = PageRequest()) throws(PagingError) -> Page<Device> {
        let now = self.now
        let devices = withProject(project) { projectState -> [Device] in
            projectState.expireDue(at: now)
            return projectState.devicesInOrder
        } ?? []
        return try page.page(of: devices, position: \.sequence)
    }

    /// One device, by FCM token.
    public func device(project: String, token: String) -> Result<Device, DeviceLookupError> {
        expireTokenIfDue(project: project, token: token)
        let now = self.now
        return withShard(of: token, in: project) { shard -> Result<Device, DeviceLookupError> in
            shard.expireDue(at: now)
            guard let device = shard.devices[token] else { return .failure(shard.lookupError(token: token)) }
            return .success(device)
        } ?? .failure(.notFound)
    }

    /// Changes a device's app state, app id (bundle id, package name or origin) and settings,
    /// those given (`PATCH .../devices/{token}`); `androidChannels` `.some(nil)` goes back to
    /// every channel.
    public func updateDevice(
        project: String, token: String, appState: AppState? = nil, bundleID: String? = nil,
        hasNotificationServiceExtension: Bool? = nil, androidChannels: [String]?? = nil, hasBackgroundHandler: Bool? = nil,
        apnsEnvironment: APNsEnvironment?? = nil, unregisterAfterSeconds: Int64?? = nil
    ) -> Result<Device, DeviceLookupError> {
        func change(_ device: inout Device) {
            if let unregisterAfterSeconds { device.unregisterAfterSeconds = unregisterAfterSeconds }
            if let appState { device.appState = appState }
            if let hasNotificationServiceExtension { device.hasNotificationServiceExtension = hasNotificationServiceExtension }
            if let androidChannels { device.androidChannels = androidChannels }
            if let hasBackgroundHandler { device.hasBackgroundHandler = hasBackgroundHandler }
        }
        // A new bundle id or environment goes into the device's APNs token entry too, which may be
        // in another shard: the whole project is taken for it (an admin call, seldom made).
        if bundleID != nil || apnsEnvironment != nil {
            return withProject(project) { projectState -> Result<Device, DeviceLookupError> in
                guard projectState.changeAPNsIdentity(ofDevice: token, bundleID: bundleID, environment: apnsEnvironment) else {
                    return .failure(projectState.lookupError(token: token))
                }
                let shard = DeviceShard.index(of: token)
                change(&projectState.shards[shard].devices[token]!)
                return .success(projectState.shards[shard].devices[token]!)
            } ?? .failure(.notFound)
        }
        expireTokenIfDue(project: project, token: token)
        return withShard(of: token, in: project) { shard -> Result<Device, DeviceLookupError> in
            guard var device = shard.devices[token] else { return .failure(shard.lookupError(token: token)) }
            change(&device)
            shard.devices[token] = device
            return .success(device)
        } ?? .failure(.notFound)
    }

    /// Deletes a device as if its app were uninstalled: its stored deliveries are dropped and
    /// its streams end; sends to its tokens are accepted (and reach nobody) for its
    /// `unregisterAfter` (else `--unregister-after`), then answered UNREGISTERED and 410 (in both
    /// token modes).
    public func uninstallDevice(project: String, token: String) -> Result<Void, DeviceLookupError> {
        let now = self.now
        let closed = withProject(project) { projectState -> Result<[StreamSubscriber], DeviceLookupError> in
            let delay = projectState.device(token)?.unregisterAfterSeconds ?? configuration.unregisterAfterSeconds
            guard let subscribers = projectState.uninstall(token: token, now: now, unregisteredFrom: now.adding(seconds: delay)) else {
                return .failure(projectState.lookupError(token: token))
            }
            return .success(subscribers)
        } ?? .failure(.notFound)
        return closed.map { subscribers in
            for subscriber in subscribers { subscriber.close() }
        }
    }

    /// Reinstalls a device's app (`POST .../devices/{token}:reinstall`): the device is uninstalled
    /// as `uninstallDevice` does (its token still accepted until its `unregisterAfter` passes), and
    /// a new device takes its place with a new FCM token and the same platform, app id, APNs token
    /// and settings. Its topic subscriptions are not carried over: a reinstalled app subscribes again.
    public func reinstallDevice(project: String, token: String) -> Result<Device, DeviceReinstallError> {
        let now = self.now
        let outcome = withProject(project) { projectState -> Result<(Device, [StreamSubscriber]), DeviceReinstallError> in
            guard let old = projectState.device(token) else { return .failure(.lookup(projectState.lookupError(token: token))) }
            if let exhausted = Counter.check(.deviceSequence, at: projectState.nextDeviceSequence) {
                return .failure(.counterExhausted(exhausted))
            }
            let delay = old.unregisterAfterSeconds ?? configuration.unregisterAfterSeconds
            let closed = projectState.uninstall(token: token, now: now, unregisteredFrom: now.adding(seconds: delay)) ?? []
            var device = projectState.makeDevice(
                token: projectState.unusedToken(), apnsToken: old.apnsToken, platform: old.platform, bundleID: old.bundleID,
                appState: old.appState, now: now)
            device.takeSettings(of: old)
            projectState.insert(device)
            return .success((device, closed))
        } ?? .failure(.lookup(.notFound))
        return outcome.map { device, closed in
            for subscriber in closed { subscriber.close() }
            return device
        }
    }

    // MARK: Sending

    // FCM's failure type gets a specialized entry point: a generic call from another module
    // would look up `SendOutcome<Failure>`'s metadata at run time on every send.
    /// Accepts a message: resolves the target to devices (in lenient mode registering an unknown
    /// well-formed token), builds what each device receives with `makeContent` (nil: the device
    /// is skipped), applies the queue rules, logs it, and hands it to open streams.
    ///
    /// `makeContent` must be pure (for FCM: convert, measure, check the size) and must not
    /// call back into the emulator: for a send to one stored device it runs outside every lock,
    /// between two short turns under its shard's (`DeviceShard+PreparedSend`), and may run again
    /// if the device changed meanwhile; for other sends, with the whole project locked. If it fails for any device,
    /// nothing is stored, registered or logged.
    /// - Parameters:
    ///   - requestBody: the request as the sender wrote it (JSON), for the message log, which
    ///     keeps it as `LoggedRequestBody.kept(_:)` says.
    ///   - implicitBundleID: the bundle id of a device registered by this send (nil: the default).
    ///   - knownDevice: for an `apnsToken` target, the device `apnsRecipient` found
    ///     for it: the send looks that device up first, and resolves the APNs token as usual when
    ///     the device is gone or no longer has it.
    @_specialize(exported: true, where Failure == GoogleError)
    @_specialize(exported: true, where Failure == APNsReason)
    public func send<Failure: Error & Sendable>(
        project: String,
        target: MessageTarget,
        origin: DeliveryOrigin,
        requestBody: [UInt8],
        implicitBundleID: String? = nil,
        knownDevice: KnownDevice? = nil,
        makeContent: (DeliveryContext) -> Result<DeliveryContent?, Failure>
    ) -> SendOutcome<Failure> {
        // Compacted before the lock, when long: a megabyte of padding is walked while other
        // sends go on. Two calls rather than one with the body chosen: a chosen body is a copy,
        // retained and released on every send.
        guard requestBody.count <= LoggedRequestBody.keptAsSentLimit else {
            return accept(
                project: project, target: target, origin: origin, requestBody: LoggedRequestBody.kept(requestBody),
                implicitBundleID: implicitBundleID, knownDevice: knownDevice, makeContent: makeContent)
        }
        return accept(
            project: project, target: target, origin: origin, requestBody: requestBody,
            implicitBundleID: implicitBundleID, knownDevice: knownDevice, makeContent: makeContent)
    }

    /// `send` once its request body is as the log keeps it.
    @inline(__always)
    private func accept<Failure: Error & Sendable>(
        project: String,
        target: MessageTarget,
        origin: DeliveryOrigin,
        requestBody: [UInt8],
        implicitBundleID: String?,
        knownDevice: KnownDevice?,
        makeContent: (DeliveryContext) -> Result<DeliveryContent?, Failure>
    ) -> SendOutcome<Failure> {
        // The project the device was found in a moment ago, unless it was removed since.
        var slot = knownDevice?.slot.flatMap { $0.id == project ? $0 : nil } ?? directory.slot(creating: project)
        // The project's limits, when it has any (docs/quotas.md): its FCM messages are counted
        // here, its devices' when the send reaches one.
        var deviceQuota: DeviceQuota?
        var countedMessage = false
        let admittingSlot = slot
        // Checked first: a project without limits does not read the clock here.
        if slot.hasQuotaLimits {
            switch slot.admitSend(countsMessage: origin == .fcm, now: self.now) {
            case .refused:
                quotaCounters.count(.projectMessages)
                return .throttled(.projectMessages, deviceToken: nil)
            case .admitted(let limits, let counted):
                deviceQuota = limits.limitsDevices ? DeviceQuota(limits: limits, counters: quotaCounters) : nil
                countedMessage = counted
            }
        }
        var sent: (SendOutcome<Failure>, [StreamSubscriber])?
        while sent == nil {
            // Read again on each try: a try after a reset or an import goes by the clock it set.
            let now = self.now
            // The one stored device a token target names (for an APNs token, the device found a
            // moment ago, which must still have it): the send takes only its shard's lock.
            let device: TokenKey?
            var apnsToken: String?
            switch target {
            case .token(let token), .fid(let token):
                device = TokenKey(token)
            case .apnsToken(let given):
                apnsToken = given
                device = knownDevice?.key ?? Self.device(withAPNsToken: given, in: slot)
            case .topic, .condition:
                device = nil
            }
            // Nil when the project was removed between finding its slot and locking it.
            var preparation: DeviceShard.Preparation? = .wholeProject
            if let device {
                let senderID = configuration.senderID ?? slot.derivedSenderID
                preparation = slot.readShard(DeviceShard.index(of: device)) {
                    $0.prepare(
                        device: device, apnsToken: apnsToken, projectID: project, senderID: senderID, counters: counters,
                        exhaustedLog: slot.exhaustedLog, configuration: configuration, now: now)
                }
            }
            switch preparation {
            case nil:
                break
            case .unreachable(let reason)?:
                return .unreachable(reason)
            case .exhausted(let exhausted)?:
                return .exhausted(exhausted)
            case .wholeProject?:
                sent = slot.withWholeProject { projectState in
                    projectState.accept(
                        counters: counters, indexes: indexes, configuration: configuration, now: now, target: target,
                        origin: origin, requestBody: requestBody, implicitBundleID: implicitBundleID,
                        knownDevice: knownDevice, deviceQuota: deviceQuota, makeContent: makeContent)
                }
            case .convertOutside(let prepared)?:
                let content: DeliveryContent
                switch makeContent(prepared.context) {
                case .success(let made?): content = made
                case .success(nil):
                    // The one device is skipped: logged with no delivery, as a topic send that
                    // reaches nobody. (The FCM conversion skips only on a fan-out today.)
                    let logged = slot.withProjectPart { projectState -> Range<Int>? in
                        if Counter.check(.logSequence, at: projectState.log.nextSequence) != nil { return nil }
                        let none = counters.upcomingDeliveryNumber..<counters.upcomingDeliveryNumber
                        projectState.log.append(
                            name: prepared.context.messageName, origin: origin, sentAt: prepared.context.now,
                            target: target, requestBody: requestBody, deliveryNumbers: none)
                        return none
                    }
                    guard let none = logged ?? nil else { return .exhausted(CounterExhausted(counter: .logSequence)) }
                    return .accepted(SentMessage(messageName: prepared.context.messageName, deliveryNumbers: none))
                case .failure(let failure): return .rejected(failure)
                }
                // Nil (twice) when the project or the device went meanwhile, or the device's
                // bundle id changed: the send starts again.
                sent = slot.withShard(DeviceShard.index(of: prepared.device)) { deviceShard in
                    deviceShard.commit(
                        prepared, content, target: target, origin: origin, configuration: configuration,
                        deviceQuota: deviceQuota
                    ) { loggedTarget in
                        // Never nil: a project is removed with every shard's lock held, this one's too.
                        slot.withProjectPart { projectState in
                            projectState.logSend(
                                name: prepared.context.messageName, origin: origin, sentAt: prepared.context.now,
                                target: loggedTarget, requestBody: requestBody, counters: counters)
                        }!
                    }
                } ?? nil
            }
            if sent == nil { slot = directory.slot(creating: project) }
        }
        let (outcome, notified) = sent!
        for subscriber in notified { subscriber.drain() }
        if case .throttled(let kind, _) = outcome {
            quotaCounters.count(kind)
            // Google does not count a 429 against the project.
            if countedMessage { admittingSlot.giveBackMessage() }
        }
        return outcome
    }

    /// The registration token of the device of project `slot` that has the APNs token `apnsToken`
    /// (looked up in the shard of the APNs token), if any.
    private static func device(withAPNsToken apnsToken: String, in slot: ProjectSlot) -> TokenKey? {
        let key = TokenKey(APNsDeviceToken.normalized(apnsToken))
        return (slot.readShard(DeviceShard.index(of: key)) { $0.tokenByAPNsToken[key: key]?.token } ?? nil).map(TokenKey.init)
    }

    /// `send` with the request given as JSON, serialized for the log.
    public func send<Failure: Error & Sendable>(
        project: String,
        target: MessageTarget,
        origin: DeliveryOrigin,
        request: JSONValue,
        implicitBundleID: String? = nil,
        makeContent: (DeliveryContext) -> Result<DeliveryContent?, Failure>
    ) -> SendOutcome<Failure> {
        send(
            project: project, target: target, origin: origin, requestBody: JSONSerializer.serialize(request),
            implicitBundleID: implicitBundleID, makeContent: makeContent)
    }

    // MARK: Connections

    /// A short connection (`:connect`): applies the connect rules and returns what the device
    /// receives; the device is offline again afterwards.
    public func connect(project: String, token: String) -> Result<[DeviceEvent], DeviceLookupError> {
        expireTokenIfDue(project: project, token: token)
        let now = self.now
        return withShard(of: token, in: project) { shard -> Result<[DeviceEvent], DeviceLookupError> in
            guard shard.devices[token] != nil else { return .failure(shard.lookupError(token: token)) }
            return .success(shard.connect(token: token, now: now, configuration: configuration).map(\.event))
        } ?? .failure(.notFound)
    }

    /// Opens a long connection (`:stream`). The connect rules run first; their events, then every
    /// new delivery, go to `listener` in order — the first ones before this returns. The listener
    /// runs on the sending thread, never under a lock of the emulator's, and settles each event's
    /// receipt once the stream has sent it (a delivery is `delivered` only then) or failed to.
    public func attachStream(
        project: String, token: String, listener: @escaping @Sendable (DeviceEvent, StreamReceipt) -> Void
    ) -> Result<DeviceStream, DeviceLookupError> {
        expireTokenIfDue(project: project, token: token)
        let now = self.now
        // The stream's receipts and its end go to this project's slot, not to whatever project
        // has the id later: after a reset, a late receipt must not settle another delivery
        // that has the same number.
        let shard = DeviceShard.index(of: token)
        while let slot = directory.slot(project) {
            let attached = slot.withShard(shard) { deviceShard -> Result<StreamSubscriber, DeviceLookupError> in
                guard deviceShard.devices[token] != nil else { return .failure(deviceShard.lookupError(token: token)) }
                let id = counters.takeSubscriberID()
                let subscriber = StreamSubscriber(id: id, listener: listener) { [weak self] handOver, sent in
                    self?.finishHandOver(in: slot, token: token, handOver, sent: sent, by: id)
                }
                let events = deviceShard.connect(token: token, now: now, configuration: configuration, handingOver: true)
                subscriber.post(events.map { ($0.event, $0.handOver) })
                deviceShard.streams[token, default: []].append(subscriber)
                deviceShard.devices[token]!.isConnected = true
                return .success(subscriber)
            }
            // Nil when the project was removed between finding its slot and locking it.
            guard let attached else { continue }
            return attached.map { subscriber in
                subscriber.drain()
                return DeviceStream(core: self, slot: slot, token: token, subscriber: subscriber)
            }
        }
        return .failure(.notFound)
    }

    /// Called through a `StreamReceipt`.
    private func finishHandOver(in slot: ProjectSlot, token: String, _ handOver: HandOver, sent: Bool, by subscriberID: Int) {
        let now = self.now
        let notified = slot.withShard(DeviceShard.index(of: token)) { shard in
            shard.finishHandOver(token: token, handOver, sent: sent, by: subscriberID, at: now)
        } ?? []
        for subscriber in notified { subscriber.drain() }
    }

    /// Called by `DeviceStream.close()`.
    func detach(from slot: ProjectSlot, token: String, subscriberID: Int) {
        let now = self.now
        slot.withShard(DeviceShard.index(of: token)) { shard in
            guard var subscribers = shard.streams[token], subscribers.contains(where: { $0.id == subscriberID })
            else { return }
            subscribers.removeAll { $0.id == subscriberID }
            shard.streams[token] = subscribers.isEmpty ? nil : subscribers
            if subscribers.isEmpty, shard.devices[token] != nil {
                shard.devices[token]!.isConnected = false
                shard.devices[token]!.lastConnectedAt = now
                shard.scheduleTokenExpiry(of: shard.devices[token]!)
            }
        }
    }

    // MARK: Message log and reset

    /// A page of the project's message log, newest first.
    public func messages(
        project: String, filter: MessageLogFilter = MessageLogFilter(), page: PageRequest = PageRequest()
    ) throws(PagingError) -> Page<LoggedMessage> {
        let now = self.now
        func read(_ projectState: ProjectState) -> Result<Page<LoggedMessage>, PagingError> {
            do throws(PagingError) {
                let sequencesOfToken = filter.token.map(projectState.messageLogSequences(of:)) ?? ChunkedArray()
                return .success(
                    try projectState.log.page(
                        matching: filter, sequencesOfToken: sequencesOfToken, deliveries: projectState.deliveries,
                        page: page))
            } catch {
                return .failure(error)
            }
        }
        let result = withProject(project) { projectState in
            projectState.expireDue(at: now)
            return read(projectState)
        }
        // An unknown project reads as an empty one, paging errors included.
        return try (result ?? read(ProjectState(projectID: project))).get()
    }

    /// The logged message with id `messageID` (the decimal id of its name), or nil when the log
    /// has none: an unknown project, a cleared log, an id never given.
    public func message(project: String, messageID: String) -> LoggedMessage? {
        guard let id = UInt64(messageID), DecimalDigits.string(of: id) == messageID else { return nil }
        let now = self.now
        return withProject(project) { projectState in
            projectState.expireDue(at: now)
            return projectState.log.message(withID: id, deliveries: projectState.deliveries)
        } ?? nil
    }

    /// A page of the projects, oldest first, with their counts.
    public func projects(page: PageRequest = PageRequest()) throws(PagingError) -> Page<ProjectSummary> {
        // Read with every stripe held: a project made meanwhile gets a sequence above every one
        // read, so a page never skips one (a project reset and made again comes back at the end).
        let slots = directory.withEveryStripeLocked { $0 }.sorted { $0.sequence < $1.sequence }
        let chosen = try page.page(of: slots, position: \.sequence)
        let now = self.now
        // Only the page's projects are read, each under its locks in turn.
        let summaries = chosen.items.compactMap { slot in
            slot.withWholeProject { project -> ProjectSummary in
                project.expireDue(at: now)
                let counts = ProjectCounts(of: project)
                return ProjectSummary(
                    projectID: project.projectID, deviceCount: counts.devices, connectedDeviceCount: counts.connectedDevices,
                    pendingDeliveryCount: counts.deliveries[.pending], messageCount: project.log.count,
                    faultCount: project.faults.faults.count, sequence: slot.sequence)
            }
        }
        return Page(items: summaries, nextPageToken: chosen.nextPageToken)
    }

    /// The delivery with public id `id` (`d-17`) in `project`, or nil.
    public func delivery(project: String, id: String) -> Delivery? {
        // As the API writes ids: digits only, no leading zero, and few enough that the number's
        // range cannot overflow (`d-+1` and `d-007` name nothing).
        let digits = id.utf8.dropFirst(2)
        guard id.hasPrefix("d-"), (1...18).contains(digits.count), digits.first != UInt8(ascii: "0"),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let number = Int(id.dropFirst(2))
        else { return nil }
        let now = self.now
        return withProject(project) { projectState -> Delivery? in
            projectState.expireDue(at: now)
            return projectState.deliveries.deliveries(numbered: number..<number + 1).first
        } ?? nil
    }

    /// Empties the project's message log (stored deliveries stay queued).
    public func clearMessages(project: String) {
        withProject(project) { projectState in
            projectState.clearMessageLog()
            for index in projectState.shards.indices {
                let stillPending = Set(
                    projectState.shards[index].devices.values.flatMap { Array($0.pendingDeliveryNumbers) + $0.handedOver.keys })
                projectState.shards[index].deliveries.removeAll { !stillPending.contains($0.number) }
                projectState.shards[index].expiries.removeAll { !stillPending.contains($0.number) }
            }
        }
    }

    /// Forgets a project: devices, uninstalled tokens, queues, log, faults; its streams end.
    public func resetProject(_ project: String) {
        let removed = directory.remove(project) { indexes.forget($0) }
        quotaCounters.noteReleased(removed?.heldCount ?? 0)
        for subscriber in removed?.openStreams ?? [] { subscriber.close() }
    }

    /// Forgets every project, returns the clock to wall time and the counters to their start:
    /// delivery numbers from 1 and message ids from wall time, as in a new process (an imported
    /// snapshot's counters, however far on, are gone with it; docs/state.md).
    public func resetAll() {
        let removed = directory.replaceAll(with: [:]) {
            indexes.rebuild(from: [])
            sharedClock.set(offsetSeconds: 0)
            counters.reset(wallTimeMilliseconds: sharedClock.wallTime())
        }
        quotaCounters.noteReleased(removed.reduce(0) { $0 + $1.heldCount })
        for subscriber in removed.flatMap(\.openStreams) { subscriber.close() }
    }
}
