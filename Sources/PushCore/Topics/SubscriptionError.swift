/// Why a topic-subscription call failed. The HTTP faces map each case to their API's error
/// format (Google's error body for v1, `{"error": "..."}` for Instance ID).
public enum SubscriptionError: Error, Sendable, Equatable {
    /// The topic name breaks `[a-zA-Z0-9-_.~%]{1,900}`.
    case invalidTopicName(String)
    /// The registration is not a well-formed FCM token.
    case malformedRegistration
    /// No device has this registration (strict token mode, or never seen).
    case registrationNotFound
    /// The device was uninstalled.
    case uninstalled(at: Timestamp)
    /// The device is already subscribed (v1 create answers 409).
    case alreadySubscribed(TopicSubscription)
    /// The device is not subscribed (v1 get, and delete without `allowMissing`).
    case notSubscribed
    /// The device already has `TopicLimits.maximumTopicsPerDevice` topics.
    case tooManyTopics
    /// A counter the subscription would move (the project's subscription, topic or device
    /// sequence) is at its maximum (docs/state.md, "Counters").
    case counterExhausted(CounterExhausted)
    /// The project's limit on subscription changes per second refused it (docs/quotas.md).
    case quotaExceeded

    /// The Instance ID API's per-token error code.
    public var instanceIDCode: String {
        switch self {
        case .invalidTopicName, .malformedRegistration: "INVALID_ARGUMENT"
        case .registrationNotFound, .uninstalled, .notSubscribed: "NOT_FOUND"
        case .alreadySubscribed: "ALREADY_EXISTS"
        case .tooManyTopics: "TOO_MANY_TOPICS"
        case .counterExhausted: "INTERNAL"
        case .quotaExceeded: "RESOURCE_EXHAUSTED"
        }
    }

    /// What went wrong, for people.
    public var message: String {
        switch self {
        case .invalidTopicName(let name):
            "Invalid topic name \"\(name)\": use 1 to \(TopicLimits.maximumNameLength) of the characters"
                + " a-z A-Z 0-9 - _ . ~ %, without the /topics/ prefix."
        case .malformedRegistration: "The registration token is not a valid FCM registration token."
        case .registrationNotFound: "Requested entity was not found: no device has this registration token."
        case .uninstalled(let at): "Requested entity was not found: the device was uninstalled (its token is unregistered from \(at.rfc3339))."
        case .alreadySubscribed: "The registration is already subscribed to this topic."
        case .notSubscribed: "Requested entity was not found: the registration is not subscribed to this topic."
        case .tooManyTopics:
            "The registration is subscribed to \(TopicLimits.maximumTopicsPerDevice) topics, the most FCM allows;"
                + " unsubscribe it from one first."
        case .counterExhausted(let exhausted): exhausted.message
        case .quotaExceeded: "Topic subscription rate exceeded: too many subscriptions changed in the last second. Retry with backoff."
        }
    }
}

extension SubscriptionError {
    /// The v1 topic API's error: Google's body, with an FcmError detail where the SDKs read one.
    public var googleError: GoogleError {
        switch self {
        case .invalidTopicName: .fcmInvalidArgument(message, field: "topic_name")
        case .malformedRegistration: .fcmInvalidRegistrationToken()
        case .registrationNotFound, .notSubscribed: .notFound(message)
        case .uninstalled: .fcmUnregistered()
        case .alreadySubscribed: .alreadyExists(message)
        case .tooManyTopics:
            GoogleError(
                status: .failedPrecondition, message: message,
                details: [GoogleErrorDetail.errorInfo(reason: "TOO_MANY_TOPICS", domain: "fcm.googleapis.com", metadata: [])])
        case .counterExhausted(let exhausted): exhausted.googleError
        case .quotaExceeded:
            GoogleError(status: .resourceExhausted, message: message, details: [GoogleErrorDetail.fcmError(.quotaExceeded)])
        }
    }
}
