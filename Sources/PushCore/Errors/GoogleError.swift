import ByteCoding

/// A Google API error, as every Google REST API answers it:
/// `{"error":{"code":400,"message":"...","status":"INVALID_ARGUMENT","details":[...]}}`.
///
/// This is the project's one encoder of Google-style errors; FCM, OAuth-adjacent and topic
/// subscription routes all build one of these and send `httpStatus` with `jsonBytes`
/// (plus `Retry-After: retryAfterSeconds` when set).
public struct GoogleError: Error, Sendable, Equatable {
    /// The canonical status; decides the HTTP status and `error.code`.
    public var status: GoogleRPCStatus
    /// The human-readable message.
    public var message: String
    /// The `error.details` entries (see `GoogleErrorDetail`); left out of the body when empty.
    public var details: [JSONValue]
    /// Seconds for a `Retry-After` header, if the client should wait.
    public var retryAfterSeconds: Int?

    /// Makes an error.
    public init(status: GoogleRPCStatus, message: String, details: [JSONValue] = [], retryAfterSeconds: Int? = nil) {
        self.status = status
        self.message = message
        self.details = details
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The HTTP status of the response.
    public var httpStatus: Int { status.httpStatus }

    /// The response body, keys in Google's order: code, message, status, details.
    public var json: JSONValue {
        var error: JSONObject = [
            "code": .number(String(httpStatus)),
            "message": .string(message),
            "status": .string(status.rawValue),
        ]
        if !details.isEmpty { error["details"] = .array(details) }
        return ["error": .object(error)]
    }

    /// The response body as bytes.
    public var jsonBytes: [UInt8] { JSONSerializer.serialize(json) }
}

// Errors that any Google API gives, worded as Google words them.
extension GoogleError {
    /// 400 INVALID_ARGUMENT; with a `google.rpc.BadRequest` detail when fields are at fault.
    public static func invalidArgument(_ message: String, fieldViolations: [GoogleFieldViolation] = []) -> GoogleError {
        GoogleError(
            status: .invalidArgument, message: message,
            details: fieldViolations.isEmpty ? [] : [GoogleErrorDetail.badRequest(fieldViolations)])
    }

    /// 400 for a body that is not JSON: `Invalid JSON payload received. Expected a value.` and
    /// the quoted input with a caret, as Google's front end answers (with no details).
    public static func invalidJSONPayload(_ error: JSONParseError) -> GoogleError {
        GoogleError(status: .invalidArgument, message: "Invalid JSON payload received. " + error.googleDescription)
    }

    /// 401 UNAUTHENTICATED with Google's long message and a `google.rpc.ErrorInfo` detail.
    ///
    /// - Parameters:
    ///   - reason: `ErrorInfo.reason`, e.g. `ACCESS_TOKEN_EXPIRED`, `ACCESS_TOKEN_TYPE_UNSUPPORTED`
    ///     or `CREDENTIALS_MISSING` (the last gets Google's "missing" wording; PyFCM refreshes its
    ///     token only on `ACCESS_TOKEN_EXPIRED`).
    ///   - method: the RPC that was called, for `metadata.method`.
    ///   - service: the API host, for `metadata.service`.
    public static func unauthenticated(
        reason: String,
        method: String = "google.firebase.fcm.v1.FcmService.SendMessage",
        service: String = "fcm.googleapis.com"
    ) -> GoogleError {
        let tail =
            " Expected OAuth 2 access token, login cookie or other valid authentication credential."
            + " See https://developers.google.com/identity/sign-in/web/devconsole-project."
        let head =
            reason == "CREDENTIALS_MISSING"
            ? "Request is missing required authentication credential."
            : "Request had invalid authentication credentials."
        return GoogleError(
            status: .unauthenticated, message: head + tail,
            details: [
                GoogleErrorDetail.errorInfo(
                    reason: reason, domain: "googleapis.com", metadata: [("method", method), ("service", service)])
            ])
    }

    /// 404 NOT_FOUND, by default with Google's generic message.
    public static func notFound(_ message: String = "Requested entity was not found.") -> GoogleError {
        GoogleError(status: .notFound, message: message)
    }

    /// 409 ALREADY_EXISTS, by default with Google's generic message.
    public static func alreadyExists(_ message: String = "Requested entity already exists") -> GoogleError {
        GoogleError(status: .alreadyExists, message: message)
    }

    /// 403 PERMISSION_DENIED.
    public static func permissionDenied(_ message: String) -> GoogleError {
        GoogleError(status: .permissionDenied, message: message)
    }

    /// 429 RESOURCE_EXHAUSTED for a limit of the emulator's own (no quota detail).
    public static func resourceExhausted(_ message: String) -> GoogleError {
        GoogleError(status: .resourceExhausted, message: message)
    }

    /// 429 RESOURCE_EXHAUSTED for a project-wide quota: an `ErrorInfo` with reason
    /// `RATE_LIMIT_EXCEEDED` and no FcmError detail, as fcm-v1.md describes.
    public static func rateLimitExceeded(
        service: String = "fcm.googleapis.com", quotaMetric: String = "Send requests",
        retryAfterSeconds: Int? = 60
    ) -> GoogleError {
        GoogleError(
            status: .resourceExhausted,
            message: "Quota exceeded for quota metric '\(quotaMetric)' of service '\(service)'.",
            details: [
                GoogleErrorDetail.errorInfo(
                    reason: "RATE_LIMIT_EXCEEDED", domain: "googleapis.com", metadata: [("service", service)])
            ],
            retryAfterSeconds: retryAfterSeconds)
    }
}
