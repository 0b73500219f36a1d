/// Why a send's target reaches no device: what resolving the target, a send and its
/// `validate_only` check answer alike (`ProjectState.Resolution`, `SendOutcome`, `TargetStatus`).
public enum UnreachableTarget: Error, Sendable, Equatable {
    /// The device was uninstalled at this time (FCM 404 UNREGISTERED, APNs 410 Unregistered).
    case unregistered(since: Timestamp)
    /// The token is malformed, or unknown in strict mode (FCM 400 INVALID_ARGUMENT "The
    /// registration token is not a valid FCM registration token", APNs 400 BadDeviceToken).
    case invalidRegistration
}
