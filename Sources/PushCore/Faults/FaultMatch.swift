import ByteCoding

/// Which attempts a fault applies to: one address of FCM or APNs, a push type, every send of
/// the project, or the token requests of a service account (docs/faults.md).
public enum FaultMatch: Sendable, Equatable {
    /// Every send of the project (the API's error kind still decides FCM or APNs); never a
    /// token request.
    case everySend
    /// FCM sends to this registration token.
    case token(String)
    /// FCM sends to this Firebase installation id.
    case fid(String)
    /// FCM sends to this topic.
    case topic(String)
    /// FCM sends with exactly this condition text.
    case condition(String)
    /// APNs sends to this device token (compared in lowercase hex).
    case apnsToken(String)
    /// APNs sends with this `apns-push-type`.
    case pushType(APNsPushType)
    /// Token requests (`POST /token`) whose assertion's `iss` is this service account email.
    case serviceAccount(String)

    /// The JSON keys of `match`, in the order they are documented.
    public static let keys = ["token", "fid", "topic", "condition", "apnsToken", "pushType", "serviceAccount"]

    /// Reads `match`: at most one key (none: every send), with a value some attempt that gets as
    /// far as the faults could carry (docs/faults.md lists the rules).
    /// - Parameter fields: the object's members, already checked to be strings.
    public init(fields: [(key: String, value: String)]) throws(GoogleError) {
        guard fields.count <= 1 else {
            throw FaultSpec.invalid(
                "match takes one of \(Self.keys.joined(separator: ", ")); got \(fields.map(\.key).joined(separator: " and ")).",
                field: "match")
        }
        guard let (key, value) = fields.first else {
            self = .everySend
            return
        }
        guard !value.isEmpty else { throw FaultSpec.invalid("match.\(key) must not be empty.", field: "match.\(key)") }
        switch key {
        case "token": self = .token(value)
        case "fid": self = .fid(value)
        case "topic":
            let topic = value.hasPrefix("/topics/") ? String(value.dropFirst(8)) : value
            // FCM refuses a send to any other topic name before faults are looked at.
            guard TopicLimits.isValidName(topic) else {
                throw Self.neverMatches(
                    key, "a topic name is 1 to \(TopicLimits.maximumNameLength) of a-z A-Z 0-9 - _ . ~ %")
            }
            self = .topic(topic)
        case "condition": self = .condition(value)
        case "apnsToken":
            // APNs answers BadDeviceToken to any other token before faults are looked at.
            guard APNsDeviceToken.isWellFormed(value) else {
                throw Self.neverMatches(key, "an APNs device token is hex of whole bytes, 2 to 512 digits")
            }
            self = .apnsToken(APNsDeviceToken.normalized(value))
        case "pushType":
            guard let pushType = APNsPushType(rawValue: value) else {
                let names = APNsPushType.allCases.map(\.rawValue).joined(separator: ", ")
                throw FaultSpec.invalid("match.pushType must be one of \(names); got \"\(value)\".", field: "match.pushType")
            }
            self = .pushType(pushType)
        case "serviceAccount": self = .serviceAccount(value)
        default:
            throw FaultSpec.invalid(
                "match takes one of \(Self.keys.joined(separator: ", ")); got \"\(key)\".", field: "match.\(key)")
        }
    }

    /// 400 for a match no attempt that reaches the faults can carry.
    private static func neverMatches(_ key: String, _ rule: String) -> GoogleError {
        FaultSpec.invalid("match.\(key) can never match: \(rule).", field: "match.\(key)")
    }

    /// Whether it names an address only the APNs provider API has.
    public var isAPNsOnly: Bool {
        switch self {
        case .apnsToken, .pushType: true
        case .everySend, .token, .fid, .topic, .condition, .serviceAccount: false
        }
    }

    /// Whether it names an address only FCM has.
    public var isFCMOnly: Bool {
        switch self {
        case .token, .fid, .topic, .condition: true
        case .everySend, .apnsToken, .pushType, .serviceAccount: false
        }
    }

    /// Whether it names token requests rather than sends.
    public var isTokenRequest: Bool {
        if case .serviceAccount = self { return true }
        return false
    }

    /// Whether an attempt is one this match names.
    public func matches(_ send: FaultedSend) -> Bool {
        switch (self, send) {
        case (.everySend, .fcm), (.everySend, .apns): true
        case (.serviceAccount(let wanted), .tokenRequest(let given)): wanted == given
        case (.token(let wanted), .fcm(.token(let given))): wanted == given
        case (.fid(let wanted), .fcm(.fid(let given))): wanted == given
        case (.topic(let wanted), .fcm(.topic(let given))): wanted == given
        case (.condition(let wanted), .fcm(.condition(let given))): wanted == given
        case (.apnsToken(let wanted), .apns(let deviceToken, _)):
            APNsDeviceToken.normalized(wanted) == APNsDeviceToken.normalized(deviceToken)
        case (.pushType(let wanted), .apns(_, let pushType)): wanted == pushType
        default: false
        }
    }

    /// `{"token": "..."}` and so on; `{}` for every send.
    public var json: JSONValue {
        let member: (String, String)? =
            switch self {
            case .everySend: nil
            case .token(let value): ("token", value)
            case .fid(let value): ("fid", value)
            case .topic(let value): ("topic", value)
            case .condition(let value): ("condition", value)
            case .apnsToken(let value): ("apnsToken", value)
            case .pushType(let value): ("pushType", value.rawValue)
            case .serviceAccount(let value): ("serviceAccount", value)
            }
        guard let member else { return .object(JSONObject()) }
        return .object(JSONObject([JSONObject.Member(key: member.0, value: .string(member.1))]))
    }
}

/// An attempt as faults see it: an FCM send's target, an APNs send's device token and push
/// type, or a token request's service account.
public enum FaultedSend: Sendable, Equatable {
    /// An FCM `messages:send` (its target as the message gives it).
    case fcm(MessageTarget)
    /// An APNs `POST /3/device/{token}` with its push type (nil when the header is absent).
    case apns(deviceToken: String, pushType: APNsPushType?)
    /// A token request (`POST /token`) whose assertion's `iss` is this email (read before any
    /// check of the assertion).
    case tokenRequest(serviceAccount: String)

    /// Whether this is an APNs send.
    var isAPNs: Bool {
        if case .apns = self { return true }
        return false
    }
}
