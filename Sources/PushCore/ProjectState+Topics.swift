/// Topic subscriptions: one store behind both the v1 topic API and the Instance ID API.
extension ProjectState {
    /// The device a subscription call names: known devices, and in lenient mode an unknown
    /// well-formed token (registered as a background iOS device, as a send to it would).
    enum SubscriptionTarget {
        case existing(String)
        case new(String)
    }

    func subscriptionTarget(_ registration: String, mode: TokenMode) -> Result<SubscriptionTarget, SubscriptionError> {
        if device(registration) != nil { return .success(.existing(registration)) }
        if let at = uninstalledAt(registration) { return .failure(.uninstalled(at: at)) }
        guard RegistrationToken.isWellFormed(registration) else { return .failure(.malformedRegistration) }
        guard mode == .lenient else { return .failure(.registrationNotFound) }
        return .success(.new(registration))
    }

    /// Existing devices only: lookups never register a device.
    func subscribedDevice(_ registration: String) -> Result<Device, SubscriptionError> {
        if let device = device(registration) { return .success(device) }
        if let at = uninstalledAt(registration) { return .failure(.uninstalled(at: at)) }
        guard RegistrationToken.isWellFormed(registration) else { return .failure(.malformedRegistration) }
        return .failure(.registrationNotFound)
    }

    /// Subscribes a stored device; the topic comes into being with its first subscriber.
    mutating func subscribe(token: String, to topic: String, now: Timestamp) -> Result<TopicSubscription, SubscriptionError> {
        guard TopicLimits.isValidName(topic) else { return .failure(.invalidTopicName(topic)) }
        let shard = DeviceShard.index(of: token)
        guard var device = shards[shard].devices.removeValue(forKey: token) else { return .failure(.registrationNotFound) }
        defer { shards[shard].devices[token] = device }
        if let existing = device.subscriptions[topic] { return .failure(.alreadySubscribed(existing)) }
        guard device.subscriptions.count < TopicLimits.maximumTopicsPerDevice else { return .failure(.tooManyTopics) }
        if let exhausted = exhaustedCounter(subscribingTo: topic) { return .failure(.counterExhausted(exhausted)) }
        let subscription = TopicSubscription(
            registration: token, topic: topic, createdAt: now, sequence: nextSubscriptionSequence)
        nextSubscriptionSequence += 1
        device.subscriptions[topic] = subscription
        if topics[topic] == nil {
            topics[topic] = TopicRecord(name: topic, createdAt: now, sequence: nextTopicSequence)
            nextTopicSequence += 1
        }
        topics[topic]!.subscribers.insert(token)
        return .success(subscription)
    }

    /// The counter that a new subscription to `topic` would take past its maximum, if any.
    func exhaustedCounter(subscribingTo topic: String) -> CounterExhausted? {
        Counter.check(.subscriptionSequence, at: nextSubscriptionSequence)
            ?? (topics[topic] == nil ? Counter.check(.topicSequence, at: nextTopicSequence) : nil)
    }

    /// Removes a subscription; `.notSubscribed` when there was none.
    mutating func unsubscribe(token: String, from topic: String) -> Result<Void, SubscriptionError> {
        guard TopicLimits.isValidName(topic) else { return .failure(.invalidTopicName(topic)) }
        let shard = DeviceShard.index(of: token)
        guard shards[shard].devices[token] != nil else { return .failure(.registrationNotFound) }
        guard shards[shard].devices[token]!.subscriptions.removeValue(forKey: topic) != nil else {
            return .failure(.notSubscribed)
        }
        topics[topic]?.subscribers.remove(token)
        return .success(())
    }

    /// Tokens of the devices subscribed to `topic`, in registration order.
    func subscribers(of topic: String) -> [String] {
        guard let record = topics[topic] else { return [] }
        return record.subscribers.compactMap { device($0) }.sorted { $0.sequence < $1.sequence }.map(\.token)
    }

    /// Topics in order of creation.
    var topicsInOrder: [TopicSummary] {
        topics.values.map(\.summary).sorted { $0.sequence < $1.sequence }
    }
}
