/// The error a fault answers with: an FCM error code (FCM sends only; `UNAVAILABLE` also on
/// token requests), an APNs reason (APNs sends only), or `invalid_grant` (token requests only).
public enum InjectedError: Sendable, Equatable {
    /// Google's error body for this code, with its FcmError detail (on a token request, only
    /// `UNAVAILABLE`: the token endpoint's 503).
    case fcm(FCMErrorCode)
    /// Apple's status and `{"reason"}` for this reason.
    case apns(APNsReason)
    /// The token endpoint's 400 `invalid_grant` "Invalid JWT Signature.".
    case invalidGrant

    /// The name of `invalidGrant` (the OAuth error code).
    public static let invalidGrantName = "invalid_grant"

    /// Reads an error name: FCM's codes are upper case, APNs reasons are Apple's spelling.
    public init(name: String) throws(GoogleError) {
        if name == Self.invalidGrantName {
            self = .invalidGrant
        } else if let code = FCMErrorCode(rawValue: name) {
            self = .fcm(code)
        } else if let reason = APNsReason(rawValue: name) {
            self = .apns(reason)
        } else {
            let fcm = FCMErrorCode.allCases.map(\.rawValue).joined(separator: ", ")
            throw FaultSpec.invalid(
                "error must be an FCM error code (\(fcm)), an APNs reason such as Unregistered or TooManyRequests, or invalid_grant (token requests); got \"\(name)\".",
                field: "error")
        }
    }

    /// The name as the fault JSON shows it.
    public var name: String {
        switch self {
        case .fcm(let code): code.rawValue
        case .apns(let reason): reason.rawValue
        case .invalidGrant: Self.invalidGrantName
        }
    }

    /// Whether it can answer this attempt (FCM codes on FCM sends, APNs reasons on APNs sends,
    /// `invalid_grant` and `UNAVAILABLE` on token requests).
    func applies(to send: FaultedSend) -> Bool {
        switch (self, send) {
        case (.fcm, .fcm), (.apns, .apns), (.invalidGrant, .tokenRequest): true
        case (.fcm(let code), .tokenRequest): code == .unavailable
        default: false
        }
    }
}
