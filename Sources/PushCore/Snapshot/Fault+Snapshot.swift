import ByteCoding

extension Fault {
    static let snapshotKeys: Set<String> = [
        "id", "match", "error", "connection", "times", "retryAfterSeconds", "delayMs", "probability", "seed", "fired", "matched",
        "randomState",
    ]

    /// The fault as the API shows it, with where its random draws stand: a restored fault with a
    /// `probability` goes on with the draws it would have made next.
    var snapshot: JSONValue {
        guard case .object(var object) = json else { return json }
        object["randomState"] = .number(String(randomState))
        return .object(object)
    }

    /// Reads a fault of a state snapshot, checked by the rules of `POST .../faults`.
    init(snapshot reader: SnapshotReader) throws(SnapshotError) {
        let idText = try reader.string("id")
        guard let id = Int(idText), id >= 1 else { throw reader.error("id", "must be a positive whole number in a string") }
        let matchReader = try reader.object("match", keys: Set(FaultMatch.keys))
        var matchFields = [(key: String, value: String)]()
        for key in FaultMatch.keys {
            if let value = try matchReader.optionalString(key) { matchFields.append((key, value)) }
        }
        let probability: Double?
        if let value = reader.optionalValue("probability") {
            guard case .number(let text) = value, let number = Double(text) else {
                throw reader.error("probability", "expected a number, got \(SnapshotReader.kind(of: value))")
            }
            probability = number
        } else {
            probability = nil
        }
        let seed = try Self.unsigned(reader, "seed")
        let errorName = try reader.optionalString("error")
        let connectionName = try reader.optionalString("connection")
        let times = try reader.optionalInt("times").map(Int64.init)
        let retryAfterSeconds = try reader.optionalInt("retryAfterSeconds").map(Int64.init)
        let delayMilliseconds = try reader.optionalInt("delayMs").map(Int64.init)
        var spec: FaultSpec
        do throws(GoogleError) {
            spec = try FaultSpec(
                match: try FaultMatch(fields: matchFields), errorName: errorName, times: times,
                retryAfterSeconds: retryAfterSeconds, delayMilliseconds: delayMilliseconds, probability: probability,
                seed: nil, connectionName: connectionName)
        } catch {
            throw SnapshotError(path: reader.path, error.message)
        }
        if seed != nil, probability == nil { throw reader.error("seed", "is only used with probability") }
        spec.seed = seed
        guard let randomState = try Self.unsigned(reader, "randomState") else { throw reader.error("randomState", "missing") }
        self.init(
            restoring: id, spec: spec, fired: try reader.int("fired"), matched: try reader.int("matched"),
            randomState: randomState)
        if fired > matched { throw reader.error("fired", "cannot be above matched (\(matched))") }
    }

    private static func unsigned(_ reader: SnapshotReader, _ key: String) throws(SnapshotError) -> UInt64? {
        guard let value = reader.optionalValue(key) else { return nil }
        guard case .number(let text) = value, let number = UInt64(text) else {
            throw reader.error(key, "expected a whole number from 0 to \(UInt64.max), got \(SnapshotReader.kind(of: value))")
        }
        return number
    }
}
