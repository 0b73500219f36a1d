import ByteCoding
import Locking
import Synchronization

/// The emulator's domain behind one lock: devices, queues, the message log and the clock.
/// Every HTTP route calls into this; listeners of open streams are called after the lock is
/// released, so they may call back in.
public final class PushEmulatorCore: Sendable {
    let state: Locked<CoreState>
    /// Whether any project has a fault; written under the lock, read without it by every send.
    let faultsPresent = Atomic<Bool>(false)

    /// Makes an empty emulator.
    /// - Parameters:
    ///   - wallTime: milliseconds since the epoch (the CLI passes the system time; tests a fixed one).
    ///   - random: the source of generated tokens and `apns-id`s. By default a fast generator
    ///     seeded once from the system's: a system call per `apns-id` would cost more than the
    ///     rest of a send, and these ids need to be unique, not secret.
    public init(
        configuration: PushCoreConfiguration = PushCoreConfiguration(),
        wallTime: @escaping @Sendable () -> Int64,
        random: some RandomNumberGenerator & Sendable = SeededRandomNumberGenerator(
            seed: UInt64.random(in: .min ... .max))
    ) {
        state = Locked(CoreState(configuration: configuration, clock: EmulatorClock(wallTime: wallTime), random: random))
    }

    /// The settings the emulator runs with.
    public var configuration: PushCoreConfiguration { state.withLock { $0.configuration } }

    // MARK: Clock

    /// The emulator's current time.
    public var now: Timestamp { state.withLock { $0.clock.now } }

    /// The clock as `GET /emulator/v1/clock` shows it.
    public var clock: EmulatorClock { state.withLock { $0.clock } }

    /// Moves the clock by `seconds`; returns the new time.
    @discardableResult
    public func advanceClock(seconds: Int64) -> Timestamp {
        state.withLock { state in
            state.clock.advance(seconds: seconds)
            return state.clock.now
        }
    }

    /// Returns the clock to wall time.
    public func resetClock() {
        state.withLock { $0.clock.reset() }
    }

    /// The numeric sender id of `project` (`--sender-id`, or derived from the project id).
    public func senderID(forProject project: String) -> String {
        state.withLock { $0.senderID(forProject: project) }
    }

    // MARK: Devices

    /// Registers a device (`POST .../devices`); a token is generated when none is given.
    public func registerDevice(project: String, _ registration: DeviceRegistration) -> Result<Device, DeviceRegistrationError> {
        state.withLock { state in
            let now = state.clock.now
            // Taken out of the dictionary while it changes: a copy left behind would make every
            // mutation copy the whole project (its deliveries) — quadratic over a long queue.
            var projectState = state.projects.removeValue(forKey: project) ?? ProjectState(projectID: project)
            defer { state.projects[project] = projectState }
            let token = registration.token ?? state.identifiers.unusedToken(in: projectState)
            if let error = projectState.check(registration, token: token) { return .failure(error) }
            let device = projectState.makeDevice(
                token: token, apnsToken: registration.apnsToken, platform: registration.platform,
                bundleID: registration.bundleID ?? state.configuration.defaultBundleID,
                appState: registration.appState, now: now)
            projectState.insert(device)
            if let apnsToken = device.apnsToken { state.noteAPNsToken(apnsToken, in: project) }
            return .success(device)
        }
    }

    /// A page of the project's devices, in registration order.
    public func devices(project: String, page: PageRequest = PageRequest()) throws(PagingError) -> Page<Device> {
        let devices = state.withLock { state -> [Device] in
            let now = state.clock.now
            state.projects[project]?.expireDue(at: now)
            return state.projects[project]?.devicesInOrder ?? []
        }
        return try page.page(of: devices, position: \.sequence)
    }

    /// One device, by FCM token.
    public func device(project: String, token: String) -> Result<Device, DeviceLookupError> {
        state.withLock { state in
            let now = state.clock.now
            state.projects[project]?.expireDue(at: now)
            guard let projectState = state.projects[project] else { return .failure(.notFound) }
            guard let device = projectState.devices[token] else {
                return .failure(projectState.lookupError(token: token))
            }
            return .success(device)
        }
    }

    /// Changes a device's app state and/or bundle id (`PATCH .../devices/{token}`).
    public func updateDevice(
        project: String, token: String, appState: AppState? = nil, bundleID: String? = nil
    ) -> Result<Device, DeviceLookupError> {
        state.withLock { state in
            guard let projectState = state.projects[project] else { return .failure(.notFound) }
            guard var device = projectState.devices[token] else {
                return .failure(projectState.lookupError(token: token))
            }
            if let appState { device.appState = appState }
            if let bundleID { device.bundleID = bundleID }
            state.projects[project]?.devices[token] = device
            return .success(device)
        }
    }

    /// Deletes a device as if its app were uninstalled: later sends to it are UNREGISTERED
    /// (in both token modes), its stored deliveries are dropped and its streams end.
    public func uninstallDevice(project: String, token: String) -> Result<Void, DeviceLookupError> {
        let closed = state.withLock { state -> Result<[StreamSubscriber], DeviceLookupError> in
            let now = state.clock.now
            guard let subscribers = state.projects[project]?.uninstall(token: token, now: now) else {
                return .failure(state.projects[project]?.lookupError(token: token) ?? .notFound)
            }
            return .success(subscribers)
        }
        return closed.map { subscribers in
            for subscriber in subscribers { subscriber.close() }
        }
    }

    // MARK: Sending

    // FCM's failure type gets a specialized entry point: a generic call from another module
    // would look up `SendOutcome<Failure>`'s metadata at run time on every send.
    /// Accepts a message: resolves the target to devices (in lenient mode registering an unknown
    /// well-formed token), builds each device's notification with `makeNotification`, applies
    /// the queue rules, logs it, and hands it to open streams.
    ///
    /// `makeNotification` runs under the lock: it must be pure (for FCM: convert, measure, check
    /// the size) and must not call back into the emulator. If it fails for any device, nothing is
    /// stored, registered or logged.
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
        makeNotification: (DeliveryContext) -> Result<APNsNotification, Failure>
    ) -> SendOutcome<Failure> {
        // Compacted before the lock, when long: a megabyte of padding is walked while other
        // sends go on. Two calls rather than one with the body chosen: a chosen body is a copy,
        // retained and released on every send.
        guard requestBody.count <= LoggedRequestBody.keptAsSentLimit else {
            return accept(
                project: project, target: target, origin: origin, requestBody: LoggedRequestBody.kept(requestBody),
                implicitBundleID: implicitBundleID, knownDevice: knownDevice, makeNotification: makeNotification)
        }
        return accept(
            project: project, target: target, origin: origin, requestBody: requestBody,
            implicitBundleID: implicitBundleID, knownDevice: knownDevice, makeNotification: makeNotification)
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
        makeNotification: (DeliveryContext) -> Result<APNsNotification, Failure>
    ) -> SendOutcome<Failure> {
        let (outcome, notified) = state.withLock { state -> (SendOutcome<Failure>, [StreamSubscriber]) in
            let configuration = state.configuration
            let now = state.clock.now
            // Changed in place in the dictionary: no copy of the project (its deliveries) is
            // left behind to make a mutation copy it, and its key is hashed once.
            return CoreState.accept(
                into: &state.projects[project, default: ProjectState(projectID: project)],
                projectsByAPNsToken: &state.projectsByAPNsToken, identifiers: &state.identifiers, configuration: configuration, now: now, target: target,
                origin: origin, requestBody: requestBody, implicitBundleID: implicitBundleID,
                knownDevice: knownDevice, makeNotification: makeNotification)
        }
        for subscriber in notified { subscriber.drain() }
        return outcome
    }

    /// `send` with the request given as JSON, serialized for the log.
    public func send<Failure: Error & Sendable>(
        project: String,
        target: MessageTarget,
        origin: DeliveryOrigin,
        request: JSONValue,
        implicitBundleID: String? = nil,
        makeNotification: (DeliveryContext) -> Result<APNsNotification, Failure>
    ) -> SendOutcome<Failure> {
        send(
            project: project, target: target, origin: origin, requestBody: JSONSerializer.serialize(request),
            implicitBundleID: implicitBundleID, makeNotification: makeNotification)
    }

    // MARK: Connections

    /// A short connection (`:connect`): applies the connect rules and returns what the device
    /// receives; the device is offline again afterwards.
    public func connect(project: String, token: String) -> Result<[DeviceEvent], DeviceLookupError> {
        state.withLock { state in
            let now = state.clock.now
            guard let projectState = state.projects[project] else { return .failure(.notFound) }
            guard projectState.devices[token] != nil else { return .failure(projectState.lookupError(token: token)) }
            return .success(
                state.projects[project]!.connect(token: token, now: now, configuration: state.configuration).map(\.event))
        }
    }

    /// Opens a long connection (`:stream`). The connect rules run first; their events, then every
    /// new delivery, go to `listener` in order — the first ones before this returns. The listener
    /// runs on the sending thread, never under the emulator's lock, and settles each event's
    /// receipt once the stream has sent it (a delivery is `delivered` only then) or failed to.
    public func attachStream(
        project: String, token: String, listener: @escaping @Sendable (DeviceEvent, StreamReceipt) -> Void
    ) -> Result<DeviceStream, DeviceLookupError> {
        let attached = state.withLock { state -> Result<StreamSubscriber, DeviceLookupError> in
            let now = state.clock.now
            guard let projectState = state.projects[project] else { return .failure(.notFound) }
            guard projectState.devices[token] != nil else { return .failure(projectState.lookupError(token: token)) }
            let id = state.nextSubscriberID
            let subscriber = StreamSubscriber(id: id, listener: listener) { [weak self] handOver, sent in
                self?.finishHandOver(project: project, token: token, handOver, sent: sent, by: id)
            }
            state.nextSubscriberID += 1
            let events = state.projects[project]!.connect(
                token: token, now: now, configuration: state.configuration, handingOver: true)
            subscriber.post(events.map { ($0.event, $0.handOver) })
            state.projects[project]!.streams[token, default: []].append(subscriber)
            state.projects[project]!.devices[token]!.isConnected = true
            return .success(subscriber)
        }
        return attached.map { subscriber in
            subscriber.drain()
            return DeviceStream(core: self, project: project, token: token, subscriber: subscriber)
        }
    }

    /// Called through a `StreamReceipt`.
    private func finishHandOver(project: String, token: String, _ handOver: HandOver, sent: Bool, by subscriberID: Int) {
        let notified = state.withLock { state in
            let now = state.clock.now
            return state.projects[project]?.finishHandOver(token: token, handOver, sent: sent, by: subscriberID, at: now) ?? []
        }
        for subscriber in notified { subscriber.drain() }
    }

    /// Called by `DeviceStream.close()`.
    func detach(project: String, token: String, subscriberID: Int) {
        state.withLock { state in
            let now = state.clock.now
            guard var subscribers = state.projects[project]?.streams[token],
                subscribers.contains(where: { $0.id == subscriberID })
            else { return }
            subscribers.removeAll { $0.id == subscriberID }
            state.projects[project]!.streams[token] = subscribers.isEmpty ? nil : subscribers
            if subscribers.isEmpty, state.projects[project]!.devices[token] != nil {
                state.projects[project]!.devices[token]!.isConnected = false
                state.projects[project]!.devices[token]!.lastConnectedAt = now
            }
        }
    }

    // MARK: Message log and reset

    /// A page of the project's message log, newest first.
    public func messages(
        project: String, filter: MessageLogFilter = MessageLogFilter(), page: PageRequest = PageRequest()
    ) throws(PagingError) -> Page<LoggedMessage> {
        let result = state.withLock { state -> Result<Page<LoggedMessage>, PagingError> in
            let now = state.clock.now
            state.projects[project]?.expireDue(at: now)
            // An unknown project reads as an empty one, paging errors included.
            let projectState = state.projects[project] ?? ProjectState(projectID: project)
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
        return try result.get()
    }

    /// Empties the project's message log (stored deliveries stay queued).
    public func clearMessages(project: String) {
        state.withLock { state in
            guard var projectState = state.projects.removeValue(forKey: project) else { return }
            defer { state.projects[project] = projectState }
            projectState.clearMessageLog()
            let stillPending = Set(projectState.devices.values.flatMap { Array($0.pendingDeliveryNumbers) + $0.handedOver.keys })
            projectState.deliveries.removeAll { !stillPending.contains($0.number) }
            projectState.expiries.removeAll { !stillPending.contains($0.number) }
        }
    }

    /// Forgets a project: devices, uninstalled tokens, queues, log, faults; its streams end.
    public func resetProject(_ project: String) {
        let removed = state.withLock { state in
            defer { Self.noteFaults(in: state, flag: faultsPresent) }
            let removed = state.projects.removeValue(forKey: project)
            if let removed { state.forgetIndexes(of: removed) }
            return removed
        }
        for subscriber in removed?.streams.values.flatMap({ $0 }) ?? [] { subscriber.close() }
    }

    /// Forgets every project, returns the clock to wall time and the counters to their start:
    /// delivery numbers from 1 and message ids from wall time, as in a new process (an imported
    /// snapshot's counters, however far on, are gone with it; docs/state.md).
    public func resetAll() {
        let removed = state.withLock { state in
            defer {
                state.replaceProjects(with: [:])
                state.clock.reset()
                state.identifiers.resetCounters(wallTimeMilliseconds: state.clock.wallTime())
                faultsPresent.store(false, ordering: .relaxed)
            }
            return Array(state.projects.values)
        }
        for subscriber in removed.flatMap({ $0.streams.values.joined() }) { subscriber.close() }
    }
}
