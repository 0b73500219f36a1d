/// How a send ended.
public enum SendOutcome<Failure: Error & Sendable>: Sendable {
    /// Accepted (FCM answers 200 with the name, APNs 200 with the `apns-id`).
    case accepted(SentMessage)
    /// The target reaches no device, for this reason; nothing was stored.
    case unreachable(UnreachableTarget)
    /// The notification builder refused the message (for example, the payload is too large);
    /// nothing was stored or registered.
    case rejected(Failure)
    /// The send would take a counter (message ids, delivery numbers, the log's or the device
    /// sequence) past its maximum; nothing was stored (FCM 500 INTERNAL, APNs 500
    /// InternalServerError, both saying which counter; docs/state.md).
    case exhausted(CounterExhausted)
    /// A limit of the project's refused the send (docs/quotas.md); nothing was stored or logged
    /// (FCM 429 RESOURCE_EXHAUSTED, APNs 429 TooManyRequests). `deviceToken`: the registration
    /// token of the device whose limit it was (nil for the project's).
    case throttled(QuotaKind, deviceToken: String?)
}
