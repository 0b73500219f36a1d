import ByteCoding

// The errors of FCM's messages:send, as in fcm-v1.md "Errors". Bodies marked unconfirmed
// there (QUOTA_EXCEEDED per device, UNAVAILABLE, INTERNAL, message too big) follow the same
// shape: the canonical status, Google's generic wording, and an FcmError detail.
extension GoogleError {
    /// 400 from FCM's own validation (not the JSON front end): a `BadRequest` naming `field`
    /// when one is at fault, then an FcmError `INVALID_ARGUMENT` — the shape Google uses for
    /// "Recipient of the message is not set.".
    public static func fcmInvalidArgument(_ message: String, field: String?) -> GoogleError {
        var details: [JSONValue] = []
        if let field {
            details.append(GoogleErrorDetail.badRequest([GoogleFieldViolation(field: field, description: message)]))
        }
        details.append(GoogleErrorDetail.fcmError(.invalidArgument))
        return GoogleError(status: .invalidArgument, message: message, details: details)
    }

    /// 400: the token is malformed (or, in strict token mode, unknown).
    public static func fcmInvalidRegistrationToken() -> GoogleError {
        GoogleError(
            status: .invalidArgument, message: "The registration token is not a valid FCM registration token",
            details: [GoogleErrorDetail.fcmError(.invalidArgument)])
    }

    /// FCM's answer to a target that reaches no device: 404 UNREGISTERED or 400 INVALID_ARGUMENT.
    public static func fcm(_ unreachable: UnreachableTarget) -> GoogleError {
        switch unreachable {
        case .unregistered: fcmUnregistered()
        case .invalidRegistration: fcmInvalidRegistrationToken()
        }
    }

    /// 404 UNREGISTERED: the app was uninstalled or the token expired.
    public static func fcmUnregistered() -> GoogleError {
        GoogleError(
            status: .notFound, message: "Requested entity was not found.",
            details: [GoogleErrorDetail.fcmError(.unregistered)])
    }

    /// 403 SENDER_ID_MISMATCH: the token belongs to another project.
    public static func fcmSenderIDMismatch() -> GoogleError {
        GoogleError(
            status: .permissionDenied, message: "SenderId mismatch",
            details: [GoogleErrorDetail.fcmError(.senderIDMismatch)])
    }

    /// 429 QUOTA_EXCEEDED for one device or topic (message wording unconfirmed).
    public static func fcmQuotaExceeded(retryAfterSeconds: Int? = 60) -> GoogleError {
        GoogleError(
            status: .resourceExhausted, message: "Quota exceeded for the message target.",
            details: [GoogleErrorDetail.fcmError(.quotaExceeded)], retryAfterSeconds: retryAfterSeconds)
    }

    /// 429 for a device's limit (docs/quotas.md): Google's error reference gives QUOTA_EXCEEDED
    /// with a `google.rpc.QuotaFailure` for "device message rate exceeded". The FcmError detail
    /// makes the SDKs raise their quota error; the QuotaFailure's wording is ours. No
    /// `Retry-After`: Google's reference asks for a backoff instead.
    public static func fcmDeviceQuotaExceeded(_ kind: QuotaKind, limit: Int?, token: String?) -> GoogleError {
        let rate =
            switch kind {
            case .androidDeviceHour: "\(limit.map(String.init) ?? "the") messages an hour"
            default: "\(limit.map(String.init) ?? "the") messages a minute"
            }
        return GoogleError(
            status: .resourceExhausted, message: "Quota exceeded for the message target.",
            details: [
                GoogleErrorDetail.fcmError(.quotaExceeded),
                GoogleErrorDetail.quotaFailure(
                    subject: token.map { "registration_token:\($0)" } ?? "registration_token",
                    description: "Device message rate exceeded: \(rate) to one device (\(kind.rawValue))."),
            ])
    }

    /// 429 for the project's messages per minute, as production answers it (firebase-admin-go#719,
    /// 2025): an ErrorInfo `RATE_LIMIT_EXCEEDED` with the quota's metadata and a Help link, and
    /// no FcmError detail, so the SDKs raise their generic "resource exhausted" error.
    public static func fcmProjectQuotaExceeded(projectNumber: String, limit: Int) -> GoogleError {
        GoogleError(
            status: .resourceExhausted,
            message: "Quota exceeded for quota metric 'Send requests' and limit 'Send requests per minute' of service"
                + " 'fcm.googleapis.com' for consumer 'project_number:\(projectNumber)'.",
            details: [
                GoogleErrorDetail.errorInfo(
                    reason: "RATE_LIMIT_EXCEEDED", domain: "googleapis.com",
                    metadata: [
                        ("quota_limit_value", String(limit)), ("consumer", "projects/\(projectNumber)"),
                        ("quota_metric", "fcm.googleapis.com/send_requests"), ("quota_unit", "1/min/{project}"),
                        ("service", "fcm.googleapis.com"), ("quota_location", "global"),
                        ("quota_limit", "SendsPerMinutePerProject"),
                    ]),
                GoogleErrorDetail.help(
                    description: "Request a higher quota limit.", url: "https://cloud.google.com/docs/quotas/help/request_increase"),
            ])
    }

    /// 503 UNAVAILABLE; the SDKs retry it and honour `Retry-After`.
    public static func fcmUnavailable(retryAfterSeconds: Int? = nil) -> GoogleError {
        GoogleError(
            status: .unavailable, message: "The service is currently unavailable.",
            details: [GoogleErrorDetail.fcmError(.unavailable)], retryAfterSeconds: retryAfterSeconds)
    }

    /// 500 INTERNAL; the Python SDK retries it.
    public static func fcmInternal() -> GoogleError {
        GoogleError(
            status: .internal, message: "Internal error encountered.",
            details: [GoogleErrorDetail.fcmError(.internal)])
    }

    /// 401 THIRD_PARTY_AUTH_ERROR: APNs or Web Push refused FCM's credentials.
    public static func fcmThirdPartyAuthError() -> GoogleError {
        GoogleError(
            status: .unauthenticated, message: "Auth error from APNS or Web Push Service",
            details: [GoogleErrorDetail.fcmError(.thirdPartyAuthError)])
    }

    /// 500 UNKNOWN with the FcmError `UNSPECIFIED_ERROR` (FCM documents the code, not its
    /// answer: this is the canonical status for an error with no more detail).
    public static func fcmUnspecified() -> GoogleError {
        GoogleError(
            status: .unknown, message: "Unknown error.", details: [GoogleErrorDetail.fcmError(.unspecified)])
    }

    /// FCM's answer for an error code, as a fault injects it (docs/faults.md): the same bodies
    /// as the emulator's own errors of that code. `toDevice` picks the registration-token
    /// wording of INVALID_ARGUMENT; `retryAfterSeconds` (or QUOTA_EXCEEDED's default of 60)
    /// becomes `Retry-After`.
    public static func fcm(_ code: FCMErrorCode, toDevice: Bool, retryAfterSeconds: Int?) -> GoogleError {
        var error: GoogleError =
            switch code {
            case .unspecified: fcmUnspecified()
            case .invalidArgument:
                toDevice
                    ? fcmInvalidRegistrationToken() : fcmInvalidArgument("Request contains an invalid argument.", field: nil)
            case .unregistered: fcmUnregistered()
            case .senderIDMismatch: fcmSenderIDMismatch()
            case .quotaExceeded: fcmQuotaExceeded()
            case .unavailable: fcmUnavailable()
            case .internal: fcmInternal()
            case .thirdPartyAuthError: fcmThirdPartyAuthError()
            }
        if let retryAfterSeconds { error.retryAfterSeconds = retryAfterSeconds }
        return error
    }

    /// 400 for a message over its size limit (4096 bytes to a device, 2048 to a topic).
    /// Google's wording is unconfirmed; this one says what to do.
    public static func fcmMessageTooBig(byteCount: Int, limit: Int) -> GoogleError {
        fcmInvalidArgument(
            "Message is too big: \(byteCount) bytes, the limit is \(limit). Send less data.", field: "message")
    }

    /// 400 for a message whose `android.restricted_package_name` is not the Android device's
    /// package: the message is the cause Google's error reference gives, the field violation says
    /// which names differ (ours: Google's exact answer is not on record).
    public static func fcmInvalidPackageName(restricted: String, package: String) -> GoogleError {
        let violation = GoogleFieldViolation(
            field: "message.android.restricted_package_name",
            description: "\"\(restricted)\" is not the device's package, \"\(package)\".")
        return GoogleError(
            status: .invalidArgument,
            message: "Invalid package name: Make sure the message was addressed to a registration token whose package"
                + " name matches the value passed in the request.",
            details: [GoogleErrorDetail.badRequest([violation]), GoogleErrorDetail.fcmError(.invalidArgument)])
    }
}
