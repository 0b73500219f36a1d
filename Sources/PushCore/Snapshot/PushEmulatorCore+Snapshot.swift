import ByteCoding

/// State export and import (`GET`/`PUT /emulator/v1/state`, `--import`, `--export-on-exit`;
/// docs/state.md describes the format).
extension PushEmulatorCore {
    /// The `kind` of every state snapshot.
    public static let snapshotKind = "push-emulator-state"
    /// The format version this emulator writes.
    public static let snapshotVersion = 3
    /// The versions it reads: version 2 added the faults' `connection` and
    /// `match.serviceAccount`, version 3 Android and web devices' settings and messages
    /// (docs/state.md); an earlier document reads as before.
    public static let readableSnapshotVersions = 1...snapshotVersion

    private static let snapshotKeys: Set<String> = ["kind", "version", "clock", "counters", "projects"]

    /// The whole state as a snapshot: every project's devices, uninstalled tokens, topics,
    /// deliveries, message log and faults, the clock's offset and the identifier counters.
    /// Open streams are not in it (a connection cannot be restored).
    public func exportState() -> JSONValue {
        export { $0 }
    }

    /// `exportState()` serialized.
    public func exportStateBytes() -> [UInt8] {
        // Serialized before the next export is built: the tree is freed before another is made.
        export(JSONSerializer.serialize)
    }

    /// Builds the snapshot and runs `finish` on it under the export's lock, then tells the
    /// expiries the export made, once every lock is released (its own included), as every
    /// change is.
    private func export<Result>(_ finish: (JSONValue) -> Result) -> Result {
        let (result, expired) = exportBuilding.withLock { _ -> (Result, Expired) in
            let (snapshot, expired) = buildExport()
            return (finish(snapshot), expired)
        }
        for (slot, changes) in expired { slot.tell(changes) }
        return result
    }

    /// The deliveries an export expired, by project.
    private typealias Expired = [(slot: ProjectSlot, changes: [DeliveryChange])]

    private func buildExport() -> (snapshot: JSONValue, expired: Expired) {
        // `now`: the time the copy was expired at, which the snapshot's times are read against.
        let ((copies, clock, now, nextMessageID, nextDeliveryNumber), expired) = consistentCopy()
        let projects = copies.map { $0.snapshot(at: now) }
        let snapshot = JSONValue.object(JSONObject([
            JSONObject.Member(key: "kind", value: .string(Self.snapshotKind)),
            JSONObject.Member(key: "version", value: .number(String(Self.snapshotVersion))),
            JSONObject.Member(
                key: "clock",
                value: .object(JSONObject([
                    JSONObject.Member(key: "offsetSeconds", value: .number(String(clock.offsetSeconds)))
                ]))),
            JSONObject.Member(
                key: "counters",
                value: .object(JSONObject([
                    // A string: 19 digits are more than a JavaScript number holds exactly.
                    JSONObject.Member(key: "nextMessageId", value: .string(String(nextMessageID))),
                    JSONObject.Member(
                        key: "nextDeliveryNumber", value: .number(String(nextDeliveryNumber))),
                ]))),
            JSONObject.Member(key: "projects", value: .array(projects)),
        ]))
        return (snapshot, expired)
    }

    /// Every project, in id order, each copied whole under its own locks (a copy shares its
    /// storage until changed), while every stripe is held so that no project comes or goes; the
    /// counters are read last, so they are past every copied id and number. The locks are
    /// released before anything is written out, so a slow reader holds none. One project at a
    /// time, not all at once: ThreadSanitizer gives up on a thread holding more than 64 locks (this
    /// holds the 16 stripes and one project's 17). The expiries it makes are handed back, to be
    /// told once every lock is released.
    private func consistentCopy() -> (
        copy: (projects: [ProjectState], clock: EmulatorClock, now: Timestamp, nextMessageID: UInt64, nextDeliveryNumber: Int),
        expired: Expired
    ) {
        directory.withEveryStripeLocked { slots in
            let clock = self.clock
            let now = clock.now
            var expired: Expired = []
            let copies = slots.compactMap { slot -> ProjectState? in
                let copied = slot.withWholeProjectKeepingChanges({ project -> ProjectState in
                    project.expireDue(at: now)
                    return project
                })
                guard let copied else { return nil }
                if !copied.changes.isEmpty { expired.append((slot, copied.changes)) }
                return copied.result
            }
            return ((copies, clock, now, counters.upcomingMessageID, counters.upcomingDeliveryNumber), expired)
        }
    }

    /// Replaces the whole state with a snapshot's, given as the bytes of its JSON.
    /// - Throws: `SnapshotError` naming what is wrong; the state is then unchanged.
    public func importState(_ bytes: [UInt8]) throws(SnapshotError) {
        let value: JSONValue
        do {
            // Deeper than a request may be: the log nests each sender's request a few levels down.
            value = try JSONParser.parse(bytes, maxDepth: JSONParser.defaultMaxDepth + 10)
        } catch {
            throw SnapshotError(path: "", "not a JSON document (truncated or corrupt?): \(error)")
        }
        try importState(value)
    }

    /// Replaces the whole state with a snapshot's: devices come back offline, open streams end.
    /// Everything is read and checked before anything changes. Message ids and delivery numbers
    /// go on from the snapshot's counters, or from this emulator's if they are further on: an
    /// import never makes ids go back (only `resetAll` starts them again).
    /// - Throws: `SnapshotError` naming what is wrong; the state is then unchanged.
    public func importState(_ snapshot: JSONValue) throws(SnapshotError) {
        guard case .object(let top) = snapshot else {
            throw SnapshotError(path: "", "a state snapshot is a JSON object, got \(SnapshotReader.kind(of: snapshot))")
        }
        // Kind and version first: a different document gets that said, not a list of its fields.
        guard top["kind"] == .string(Self.snapshotKind) else {
            throw SnapshotError(path: "kind", "must be \"\(Self.snapshotKind)\" (not a push-emulator state snapshot?)")
        }
        guard case .number(let versionText)? = top["version"], let version = Int(versionText),
              Self.readableSnapshotVersions.contains(version)
        else {
            let found = top["version"].map(SnapshotReader.kind(of:)) ?? "nothing"
            let versions = Self.readableSnapshotVersions
            throw SnapshotError(
                path: "version", "this emulator reads versions \(versions.lowerBound) to \(versions.upperBound); found \(found)")
        }
        let reader = try SnapshotReader(snapshot, path: "", keys: Self.snapshotKeys)
        let offsetValue = try reader.object("clock", keys: ["offsetSeconds"]).value("offsetSeconds")
        guard case .number(let offsetText) = offsetValue, let offsetSeconds = Int64(offsetText) else {
            throw SnapshotError(path: "clock.offsetSeconds", "expected a whole number of seconds")
        }
        // clock:advance moves the clock forward only and clock:reset returns it to wall time, so
        // no clock operation makes a clock behind wall time (before the epoch, far enough back).
        guard offsetSeconds >= 0 else {
            throw SnapshotError(
                path: "clock.offsetSeconds", "must not be negative (the clock only moves forward from wall time); got \(offsetSeconds)")
        }
        let counters = try reader.object("counters", keys: ["nextMessageId", "nextDeliveryNumber"])
        // Up to the counter's maximum (19 digits, as FCM's ids have), which a send never passes:
        // whatever an export holds imports again.
        guard let nextMessageID = UInt64(try counters.string("nextMessageId")), nextMessageID > 0,
            nextMessageID <= Counter.largestMessageID
        else {
            throw counters.error(
                "nextMessageId", "expected a positive whole number of at most 19 digits (\(Counter.largestMessageID)), in a string")
        }
        let nextDeliveryNumber = try counters.int("nextDeliveryNumber", atLeast: 1)
        var projects = [String: ProjectState]()
        for entry in try reader.objects("projects", keys: ProjectState.snapshotKeys) {
            let project = try ProjectState(snapshot: entry)
            guard projects[project.projectID] == nil else {
                throw entry.error("projectId", "project \(project.projectID) is listed twice")
            }
            if let highest = project.shards.indices.compactMap({ project.shards[$0].deliveries.highestNumber }).max(),
                highest >= nextDeliveryNumber
            {
                throw counters.error("nextDeliveryNumber", "must be above every delivery's number (\(highest) in \(project.projectID))")
            }
            projects[project.projectID] = project
        }

        let replaced = directory.replaceAll(with: projects) {
            indexes.rebuild(from: projects.values)
            sharedClock.set(offsetSeconds: offsetSeconds)
            self.counters.skip(toMessageID: nextMessageID, toDeliveryNumber: nextDeliveryNumber)
        }
        quotaCounters.noteReleased(replaced.reduce(0) { $0 + $1.heldCount })
        for subscriber in replaced.flatMap(\.openStreams) { subscriber.close() }
    }
}
