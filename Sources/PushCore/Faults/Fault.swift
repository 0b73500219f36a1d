import ByteCoding

/// A stored fault: what was asked, how often it has fired, and its random draws.
public struct Fault: Sendable {
    /// Its id within the project (decimal, increasing).
    public let id: Int
    /// What was asked (with the seed chosen when `probability` came without one).
    public let spec: FaultSpec
    /// How many attempts it has fired on.
    public private(set) var fired = 0
    /// How many matching attempts it has seen (fired or not: a probability draw may spare one).
    public private(set) var matched = 0
    private var random: SeededRandomNumberGenerator

    init(id: Int, spec: FaultSpec, seed: UInt64) {
        self.id = id
        var spec = spec
        if spec.probability != nil, spec.seed == nil { spec.seed = seed }
        self.spec = spec
        random = SeededRandomNumberGenerator(seed: spec.seed ?? seed)
    }

    /// A fault as a state snapshot kept it: its counts and where its random draws stand.
    init(restoring id: Int, spec: FaultSpec, fired: Int, matched: Int, randomState: UInt64) {
        self.id = id
        self.spec = spec
        self.fired = fired
        self.matched = matched
        random = SeededRandomNumberGenerator(seed: randomState)
    }

    /// Where its random draws stand (`init(restoring:...)` goes on from there).
    var randomState: UInt64 { random.currentState }

    /// Whether it has fired its `times` already.
    public var isUsedUp: Bool { spec.times.map { fired >= $0 } ?? false }

    /// Decides whether it fires on `send` and counts it: the error kind must suit the send,
    /// the match must name it, `times` must be left, and the probability draw must come up.
    mutating func fires(on send: FaultedSend) -> Bool {
        guard !isUsedUp, spec.error?.applies(to: send) ?? true, spec.match.matches(send) else { return false }
        // Both counts stop at the largest number a snapshot holds, so that an export imports again.
        matched = min(matched + 1, SnapshotReader.largestInt)
        if let probability = spec.probability {
            // 53 random bits: a uniform draw in [0, 1).
            let draw = Double(random.next() >> 11) * 0x1p-53
            guard draw < probability else { return false }
        }
        fired = min(fired + 1, SnapshotReader.largestInt)
        return true
    }

    /// The fault as the API shows it.
    public var json: JSONValue {
        var object: JSONObject = ["id": .string(String(id)), "match": spec.match.json]
        if let error = spec.error { object["error"] = .string(error.name) }
        if let connection = spec.connection { object["connection"] = .string(connection.rawValue) }
        if let times = spec.times { object["times"] = .number(String(times)) }
        if let seconds = spec.retryAfterSeconds { object["retryAfterSeconds"] = .number(String(seconds)) }
        if let delay = spec.delayMilliseconds { object["delayMs"] = .number(String(delay)) }
        if let probability = spec.probability { object["probability"] = .number(String(probability)) }
        if let seed = spec.seed { object["seed"] = .number(String(seed)) }
        object["fired"] = .number(String(fired))
        object["matched"] = .number(String(matched))
        return .object(object)
    }
}

/// What a fired fault does to its attempt.
public struct FiredFault: Sendable, Equatable {
    /// The error to answer; nil: perform the send normally (after the delay), unless
    /// `connection` says otherwise.
    public var error: InjectedError?
    /// What happens to the connection (after the error, if any).
    public var connection: ConnectionFault?
    /// Seconds for `Retry-After`, if any.
    public var retryAfterSeconds: Int?
    /// Milliseconds to wait before answering, if any.
    public var delayMilliseconds: Int?
    /// The id of the fault that fired, in its project.
    public var faultID: Int

    /// Makes one (tests and routes compare against it).
    public init(
        error: InjectedError?, retryAfterSeconds: Int?, delayMilliseconds: Int?, connection: ConnectionFault? = nil, faultID: Int = 0
    ) {
        self.faultID = faultID
        self.error = error
        self.connection = connection
        self.retryAfterSeconds = retryAfterSeconds
        self.delayMilliseconds = delayMilliseconds
    }
}
