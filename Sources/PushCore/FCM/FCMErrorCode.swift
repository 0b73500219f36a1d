/// The `errorCode` of a `google.firebase.fcm.v1.FcmError` detail; the Admin SDKs map it to
/// their exception classes (`UnregisteredError`, `SenderIdMismatchError`, ...).
public enum FCMErrorCode: String, Sendable, Equatable, CaseIterable {
    /// No more specific code.
    case unspecified = "UNSPECIFIED_ERROR"
    /// The request or the token is invalid.
    case invalidArgument = "INVALID_ARGUMENT"
    /// The app instance is gone (uninstalled, token expired).
    case unregistered = "UNREGISTERED"
    /// The token belongs to another sender.
    case senderIDMismatch = "SENDER_ID_MISMATCH"
    /// Per-device or per-topic rate limit.
    case quotaExceeded = "QUOTA_EXCEEDED"
    /// FCM is overloaded; retry later.
    case unavailable = "UNAVAILABLE"
    /// FCM failed; retry later.
    case `internal` = "INTERNAL"
    /// APNs or Web Push rejected FCM's credentials.
    case thirdPartyAuthError = "THIRD_PARTY_AUTH_ERROR"
}
