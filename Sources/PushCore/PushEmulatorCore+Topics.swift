/// Topic subscriptions, through FCM's v1 topic API (project in the path) and the Instance ID
/// API (no project: each token is found in the project that holds it).
extension PushEmulatorCore {
    /// Subscribes a registration to a topic. In lenient token mode an unknown well-formed token
    /// is registered first, as a send to it would register it.
    public func subscribe(project: String, registration: String, topic: String) -> Result<TopicSubscription, SubscriptionError> {
        guard TopicLimits.isValidName(topic) else { return .failure(.invalidTopicName(topic)) }
        guard admitSubscriptions(project: project, 1) else { return .failure(.quotaExceeded) }
        let now = self.now
        return withProject(creating: project) { projectState -> Result<TopicSubscription, SubscriptionError> in
            switch projectState.subscriptionTarget(registration, mode: configuration.tokenMode) {
            case .failure(let error):
                return .failure(error)
            case .success(.new(let token)):
                // Checked before the device is stored: a refused call registers nothing.
                if let exhausted = Counter.check(.deviceSequence, at: projectState.nextDeviceSequence)
                    ?? projectState.exhaustedCounter(subscribingTo: topic)
                {
                    return .failure(.counterExhausted(exhausted))
                }
                projectState.insert(projectState.makeDevice(
                    token: token, apnsToken: nil, platform: .ios, bundleID: configuration.defaultBundleID,
                    appState: .background, now: now))
            case .success(.existing):
                break
            }
            return projectState.subscribe(token: registration, to: topic, now: now)
        }
    }

    /// Removes a subscription; `.notSubscribed` when there is none.
    public func unsubscribe(project: String, registration: String, topic: String) -> Result<Void, SubscriptionError> {
        guard TopicLimits.isValidName(topic) else { return .failure(.invalidTopicName(topic)) }
        guard admitSubscriptions(project: project, 1) else { return .failure(.quotaExceeded) }
        return withProject(project) { projectState -> Result<Void, SubscriptionError> in
            let lookup = projectState.subscribedDevice(registration)
            if case .failure(let error) = lookup { return .failure(error) }
            return projectState.unsubscribe(token: registration, from: topic)
        } ?? ProjectState(projectID: project).subscribedDevice(registration).map { _ in () }
    }

    /// One subscription of a registration.
    public func subscription(project: String, registration: String, topic: String) -> Result<TopicSubscription, SubscriptionError> {
        subscriptions(project: project, registration: registration).flatMap { subscriptions in
            guard TopicLimits.isValidName(topic) else { return .failure(.invalidTopicName(topic)) }
            return subscriptions.first { $0.topic == topic }.map(Result.success) ?? .failure(.notSubscribed)
        }
    }

    /// A registration's subscriptions, oldest first.
    public func subscriptions(project: String, registration: String) -> Result<[TopicSubscription], SubscriptionError> {
        func read(_ projectState: ProjectState) -> Result<[TopicSubscription], SubscriptionError> {
            projectState.subscribedDevice(registration).map { device in
                device.subscriptions.values.sorted { $0.sequence < $1.sequence }
            }
        }
        return withProject(project) { read($0) } ?? read(ProjectState(projectID: project))
    }

    /// A page of a registration's subscriptions, oldest first.
    public func subscriptions(
        project: String, registration: String, page: PageRequest
    ) throws(PagingError) -> Result<Page<TopicSubscription>, SubscriptionError> {
        switch subscriptions(project: project, registration: registration) {
        case .success(let subscriptions): return .success(try page.page(of: subscriptions, position: \.sequence))
        case .failure(let error): return .failure(error)
        }
    }

    /// A page of the project's topics, in order of creation, with their subscriber counts.
    public func topics(project: String, page: PageRequest = PageRequest()) throws(PagingError) -> Page<TopicSummary> {
        // The whole project, not its part alone: subscribers whose token expired go first.
        let topics = withProject(project) { $0.topicsInOrder } ?? []
        return try page.page(of: topics, position: \.sequence)
    }

    // MARK: Instance ID API

    /// Subscribes (or unsubscribes) each token — the Instance ID batch calls. A token is looked
    /// up in every project; unknown tokens are `.registrationNotFound` in both token modes, since
    /// the call names no project to register them in. Subscribing an already subscribed token,
    /// or unsubscribing one that is not, succeeds. Returns one result per token, in order.
    public func batchSubscription(tokens: [String], topic: String, subscribe: Bool) -> [SubscriptionError?] {
        let now = self.now
        return tokens.map { token -> SubscriptionError? in
            guard TopicLimits.isValidName(topic) else { return .invalidTopicName(topic) }
            // The project whose limit counted this token (a retry below counts it once).
            var counted: String?
            // Found, then changed under the project's locks, where the device is looked up again:
            // it may have gone in between (then the token is looked for again).
            while true {
                let project: String
                switch self.project(holdingToken: token) {
                case .success(let found): project = found
                case .failure(let error): return error
                }
                // Counted per token, in the token's project: the batch may span several.
                if counted != project {
                    guard admitSubscriptions(project: project, 1) else { return .quotaExceeded }
                    counted = project
                }
                let result = withProject(project) { projectState -> Result<Void, SubscriptionError>? in
                    guard projectState.device(token) != nil else { return nil }
                    return subscribe
                        ? projectState.subscribe(token: token, to: topic, now: now).map { _ in () }
                        : projectState.unsubscribe(token: token, from: topic)
                } ?? nil
                switch result {
                case nil: continue
                case .success?, .failure(.alreadySubscribed)?, .failure(.notSubscribed)?: return nil
                case .failure(let error)?: return error
                }
            }
        }
    }

    /// The device holding `token` and its project, for `GET /iid/info/{token}`.
    public func instance(token: String) -> Result<(project: String, device: Device), SubscriptionError> {
        while true {
            let found = project(holdingToken: token).map { project -> (project: String, device: Device)? in
                expireTokenIfDue(project: project, token: token)
                guard let device = withShard(of: token, in: project, { $0.devices[token] }) ?? nil else { return nil }
                return (project, device)
            }
            switch found {
            case .success(let instance?): return .success(instance)
            case .success(nil): continue  // the device went between the two looks
            case .failure(let error): return .failure(error)
            }
        }
    }

    /// The project whose device has this token (projects in name order, so the answer is stable),
    /// each project read under the lock of the token's shard in turn.
    func project(holdingToken token: String) -> Result<String, SubscriptionError> {
        let slots = directory.slots
        let shard = DeviceShard.index(of: token)
        if let slot = slots.first(where: { $0.readShard(shard, { $0.devices[token] != nil }) == true }) { return .success(slot.id) }
        if let at = slots.lazy.compactMap({ $0.readShard(shard, { $0.uninstalledTokens[token] }) ?? nil }).first {
            return .failure(.uninstalled(at: at))
        }
        return .failure(RegistrationToken.isWellFormed(token) ? .registrationNotFound : .malformedRegistration)
    }
}
