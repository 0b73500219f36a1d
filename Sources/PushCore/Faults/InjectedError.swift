/// The error a fault answers with: an FCM error code (FCM sends only) or an APNs reason (APNs
/// sends only).
public enum InjectedError: Sendable, Equatable {
    /// Google's error body for this code, with its FcmError detail.
    case fcm(FCMErrorCode)
    /// Apple's status and `{"reason"}` for this reason.
    case apns(APNsReason)

    /// Reads an error name: FCM's codes are upper case, APNs reasons are Apple's spelling.
    public init(name: String) throws(GoogleError) {
        if let code = FCMErrorCode(rawValue: name) {
            self = .fcm(code)
        } else if let reason = APNsReason(rawValue: name) {
            self = .apns(reason)
        } else {
            let fcm = FCMErrorCode.allCases.map(\.rawValue).joined(separator: ", ")
            throw FaultSpec.invalid(
                "error must be an FCM error code (\(fcm)) or an APNs reason such as Unregistered or TooManyRequests; got \"\(name)\".",
                field: "error")
        }
    }

    /// The name as the fault JSON shows it.
    public var name: String {
        switch self {
        case .fcm(let code): code.rawValue
        case .apns(let reason): reason.rawValue
        }
    }

    /// Whether it can answer this send (FCM codes on FCM sends, APNs reasons on APNs sends).
    func applies(to send: FaultedSend) -> Bool {
        switch self {
        case .fcm: !send.isAPNs
        case .apns: send.isAPNs
        }
    }
}
