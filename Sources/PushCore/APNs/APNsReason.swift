/// A reason APNs gives for refusing a notification: the `{"reason": ...}` of an error answer,
/// with the status Apple pairs it with (the table is in docs/apns.md).
public enum APNsReason: String, Sendable, CaseIterable, Error {
    // 400
    /// The `apns-collapse-id` is longer than 64 bytes.
    case badCollapseId = "BadCollapseId"
    /// The device token is not hex of whole bytes (or belongs to the other environment).
    case badDeviceToken = "BadDeviceToken"
    /// `apns-expiration` is not a number of seconds.
    case badExpirationDate = "BadExpirationDate"
    /// `apns-id` is not a canonical UUID.
    case badMessageId = "BadMessageId"
    /// `apns-priority` is not 10, 5 or 1, or not allowed for the push type.
    case badPriority = "BadPriority"
    /// `apns-topic` is not a valid topic.
    case badTopic = "BadTopic"
    /// The device token belongs to another app than the topic's.
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    /// A header is repeated.
    case duplicateHeaders = "DuplicateHeaders"
    /// The connection was idle too long.
    case idleTimeout = "IdleTimeout"
    /// `apns-push-type` is not one of Apple's, or the topic lacks the suffix it needs.
    case invalidPushType = "InvalidPushType"
    /// The path has no device token.
    case missingDeviceToken = "MissingDeviceToken"
    /// `apns-topic` is required (token authentication) and absent.
    case missingTopic = "MissingTopic"
    /// The body is empty (or not a JSON object).
    case payloadEmpty = "PayloadEmpty"
    /// Pushing to this topic is not allowed.
    case topicDisallowed = "TopicDisallowed"
    // 403
    /// The client certificate is invalid.
    case badCertificate = "BadCertificate"
    /// The client certificate is for the other environment.
    case badCertificateEnvironment = "BadCertificateEnvironment"
    /// The provider token is older than an hour.
    case expiredProviderToken = "ExpiredProviderToken"
    /// The action is not allowed.
    case forbidden = "Forbidden"
    /// The provider token is malformed, its key unknown or its signature wrong.
    case invalidProviderToken = "InvalidProviderToken"
    /// No provider token and no client certificate.
    case missingProviderToken = "MissingProviderToken"
    /// The token's key is of another kind than the connection's first.
    case unrelatedKeyIdInToken = "UnrelatedKeyIdInToken"
    /// The token's key is for the other environment.
    case badEnvironmentKeyIdInToken = "BadEnvironmentKeyIdInToken"
    // 404, 405
    /// The path is not `/3/device/{token}`.
    case badPath = "BadPath"
    /// The method is not POST.
    case methodNotAllowed = "MethodNotAllowed"
    // 410
    /// The device token has expired.
    case expiredToken = "ExpiredToken"
    /// The device token is no longer active for the topic (the app was uninstalled).
    case unregistered = "Unregistered"
    // 413
    /// The payload is larger than 4096 bytes (5120 for VoIP).
    case payloadTooLarge = "PayloadTooLarge"
    // 429
    /// The provider token was renewed too often (more than once in 20 minutes).
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    /// Too many requests to one device token.
    case tooManyRequests = "TooManyRequests"
    // 5xx
    /// An internal error.
    case internalServerError = "InternalServerError"
    /// The service is unavailable.
    case serviceUnavailable = "ServiceUnavailable"
    /// The server is shutting down.
    case shutdown = "Shutdown"

    /// The HTTP status Apple answers this reason with.
    public var status: Int {
        switch self {
        case .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
            .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
            .missingTopic, .payloadEmpty, .topicDisallowed:
            400
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
            .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken:
            403
        case .badPath: 404
        case .methodNotAllowed: 405
        case .expiredToken, .unregistered: 410
        case .payloadTooLarge: 413
        case .tooManyProviderTokenUpdates, .tooManyRequests: 429
        case .internalServerError: 500
        case .serviceUnavailable, .shutdown: 503
        }
    }
}
