import ByteCoding

/// What a client asks for in `POST .../faults`, checked: the rules are in docs/faults.md.
public struct FaultSpec: Sendable, Equatable {
    /// The longest `delayMs`: one minute (longer than any SDK's request timeout).
    public static let maximumDelayMilliseconds = 60_000
    /// The largest `retryAfterSeconds`: one day.
    public static let maximumRetryAfterSeconds = 86_400
    /// The largest `times`: 2^31 - 1, what every client's 32-bit integer holds.
    public static let maximumTimes = Int(Int32.max)

    /// Which attempts it applies to.
    public var match: FaultMatch
    /// The error answered; nil for a pure delay or a transport fault without an answer.
    public var error: InjectedError?
    /// What it does to the connection (after the error, if any); nil: nothing.
    public var connection: ConnectionFault?
    /// How many attempts it fires on; nil: until deleted.
    public var times: Int?
    /// Seconds for a `Retry-After` header on the error.
    public var retryAfterSeconds: Int?
    /// Milliseconds to hold the answer (the error, or the normal send for a pure delay).
    public var delayMilliseconds: Int?
    /// The chance that a matching attempt fires; nil: every one.
    public var probability: Double?
    /// The seed of the fault's random draws (given, or chosen when `probability` is set).
    public var seed: UInt64?

    /// Checks a fault's fields as they came in the JSON body.
    /// - Throws: 400 INVALID_ARGUMENT saying which field is wrong and why.
    public init(
        match: FaultMatch, errorName: String?, times: Int64?, retryAfterSeconds: Int64?, delayMilliseconds: Int64?,
        probability: Double?, seed: Int64?, connectionName: String? = nil
    ) throws(GoogleError) {
        self.match = match
        error = try errorName.map { name throws(GoogleError) in try InjectedError(name: name) }
        connection = try connectionName.map { name throws(GoogleError) in try ConnectionFault(name: name) }
        guard error != nil || delayMilliseconds != nil || connection != nil else {
            throw Self.invalid(
                "A fault needs error (the error to answer), delayMs (a delay), connection (reset or goaway), or a combination.",
                field: nil)
        }
        if connection == .reset {
            if error != nil {
                throw Self.invalid(
                    "connection reset aborts the connection without an answer, so it takes no error; use goaway to answer an error and then end the connection.",
                    field: "error")
            }
            if retryAfterSeconds != nil {
                throw Self.invalid(
                    "connection reset aborts the connection without an answer, so it takes no retryAfterSeconds.",
                    field: "retryAfterSeconds")
            }
        }
        try Self.checkTokenRequestRules(error: error, match: match)
        switch (error, match.isAPNsOnly, match.isFCMOnly) {
        case (.fcm(let code)?, true, _):
            throw Self.invalid(
                "error \(code.rawValue) is an FCM error, but match names an APNs send; use an APNs reason such as Unregistered.",
                field: "error")
        case (.apns(let reason)?, _, true):
            throw Self.invalid(
                "error \(reason.rawValue) is an APNs reason, but match names an FCM send; use an FCM error code such as UNREGISTERED.",
                field: "error")
        default: break
        }
        self.times = try Self.checked(
            times, "times", in: 1...Int64(Self.maximumTimes), "from 1 to \(Self.maximumTimes) (leave it out: until deleted)")
        self.retryAfterSeconds = try Self.checked(
            retryAfterSeconds, "retryAfterSeconds", in: 0...Int64(Self.maximumRetryAfterSeconds),
            "from 0 to \(Self.maximumRetryAfterSeconds)")
        self.delayMilliseconds = try Self.checked(
            delayMilliseconds, "delayMs", in: 0...Int64(Self.maximumDelayMilliseconds),
            "from 0 to \(Self.maximumDelayMilliseconds)")
        if let probability {
            guard probability >= 0, probability <= 1 else {
                throw Self.invalid("probability must be from 0 to 1; got \(probability).", field: "probability")
            }
        }
        self.probability = probability
        if let seed {
            guard probability != nil else {
                throw Self.invalid("seed is only used with probability: give both, or neither.", field: "seed")
            }
            guard seed >= 0 else { throw Self.invalid("seed must not be negative; got \(seed).", field: "seed") }
        }
        self.seed = seed.map { UInt64($0) }
    }

    /// A serviceAccount match takes `invalid_grant` or `UNAVAILABLE` (or no error), and
    /// `invalid_grant` takes a serviceAccount match.
    private static func checkTokenRequestRules(error: InjectedError?, match: FaultMatch) throws(GoogleError) {
        switch (error, match.isTokenRequest) {
        case (.invalidGrant?, false):
            throw invalid(
                "error invalid_grant is a token endpoint error: it needs match.serviceAccount (the service account whose token requests fail).",
                field: "error")
        case (.some(let error), true) where error != .invalidGrant && error != .fcm(.unavailable):
            throw invalid(
                "match.serviceAccount names token requests, which fail with invalid_grant or UNAVAILABLE only; got \(error.name).",
                field: "error")
        default:
            break
        }
    }

    private static func checked(
        _ value: Int64?, _ field: String, in range: ClosedRange<Int64>, _ rule: String
    ) throws(GoogleError) -> Int? {
        guard let value else { return nil }
        guard range.contains(value) else { throw invalid("\(field) must be \(rule); got \(value).", field: field) }
        return Int(value)
    }

    /// 400 INVALID_ARGUMENT for a fault body, naming the field at fault.
    static func invalid(_ message: String, field: String?) -> GoogleError {
        .invalidArgument(message, fieldViolations: [GoogleFieldViolation(field: field, description: message)])
    }
}
