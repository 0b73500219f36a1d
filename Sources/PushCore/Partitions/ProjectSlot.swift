import Locking
import Synchronization

/// One project's state behind locks of its own: each of its `DeviceShard`s behind one, and what
/// is the project's as a whole (the message log, topics, faults, counters: a `ProjectState`
/// whose `shards` are empty here) behind another. Sends to devices in different shards of one
/// project queue side by side and meet only for the moment of logging; sends to different
/// projects never meet. Whatever holds several takes them in order: shards in index order, then
/// the project part (docs/ARCHITECTURE.md, "Concurrency: what is locked where").
///
/// Every lock's value is marked removed (and emptied) once the project has left the directory
/// (a reset, an import): a caller that found the slot just before finds nothing and looks again.
/// A mark, not an optional: a test of an optional for nil copied the whole shard, retaining and
/// releasing its every table, on each turn.
///
/// Each change of a shard's counts (devices, streams, deliveries by state) is added to the
/// totals of the directory stripe, which `/metrics` sums: a scrape costs the same whatever the
/// number of projects, and no counter is shared by all sends.
final class ProjectSlot: Sendable {
    let id: String
    /// The order the directory made the slot in (`GET /emulator/v1/projects` lists by it).
    let sequence: Int
    /// The sender id derived from `id` (`ProjectState.derivedSenderID`), for sends prepared in a
    /// shard.
    let derivedSenderID: String
    private let shards: [Locked<DeviceShard>]
    private let project: Locked<ProjectState>
    private let totals: Locked<ProjectCounts>
    /// Whether the message log can take no more entries (its sequence at the counter's maximum),
    /// noted after each change of the project part: a send checks it before it takes a
    /// message id, without the log's lock. Only an imported snapshot gets there.
    private let logIsFull: Atomic<Bool>
    /// The project's limits and windows (docs/quotas.md), behind a lock of their own that is
    /// taken alone; `hasQuotas` says whether any limit is set, so that a project without limits
    /// (the default) costs a send one atomic load.
    private let quota: Locked<ProjectQuota>
    private let hasQuotas: Atomic<Bool>
    /// Who hears of the project's delivery changes, told once a call's locks are released.
    private let changes: DeliveryChangeListener

    /// A slot for `project`, whose counts are added to `totals`. Each shard's random source is
    /// seeded from the project's.
    init(
        _ project: consuming ProjectState, sequence: Int, totals: Locked<ProjectCounts>, quotaLimits: QuotaLimits,
        changes: DeliveryChangeListener
    ) {
        self.changes = changes
        var project = project
        let counts = ProjectCounts(of: project)
        id = project.projectID
        self.sequence = sequence
        derivedSenderID = project.derivedSenderID
        var shards = [Locked<DeviceShard>]()
        shards.reserveCapacity(DeviceShard.count)
        for index in project.shards.indices {
            var shard = DeviceShard()
            swap(&shard, &project.shards[index])
            shard.random = SeededRandomNumberGenerator(seed: project.random.next())
            shards.append(Locked(shard))
        }
        project.shards = []
        self.shards = shards
        logIsFull = Atomic(Self.isFull(nextSequence: project.log.nextSequence))
        self.project = Locked(project)
        self.totals = totals
        quota = Locked(ProjectQuota(limits: quotaLimits))
        hasQuotas = Atomic(!quotaLimits.isOff)
        totals.withLock { $0.add(counts, minus: ProjectCounts()) }
    }

    /// Runs `body` on shard `index` with its lock held, and adds any change of its counts to the
    /// stripe's totals; nil once the project was removed.
    func withShard<Result>(_ index: Int, _ body: (inout DeviceShard) -> Result) -> Result? {
        // Two paths, so that the common one (nobody listens) is what it was before changes were
        // noted: noting inside the one closure cost a send about 2,000 instructions.
        guard changes.isListening else { return withShard(index, counting: body) }
        var changed: [DeliveryChange] = []
        let result = withShard(index, counting: { shard -> Result in
            shard.deliveries.startRecording()
            defer { changed = shard.deliveries.takeChanges() }
            return body(&shard)
        })
        changes.tell(project: id, changed)
        return result
    }

    private func withShard<Result>(_ index: Int, counting body: (inout DeviceShard) -> Result) -> Result? {
        shards[index].withLock { shard in
            guard !shard.isRemoved else { return nil }
            let before = ProjectCounts.of(&shard)
            let result = body(&shard)
            let after = ProjectCounts.of(&shard)
            if after != before { totals.withLock { $0.add(after, minus: before) } }
            return result
        }
    }

    /// `withShard` for a `body` that changes none of the shard's counts (checked in debug
    /// builds): an APNs push's lookup of its device, for one, skips reading them twice.
    func readShard<Result>(_ index: Int, _ body: (inout DeviceShard) -> Result) -> Result? {
        shards[index].withLock { shard in
            guard !shard.isRemoved else { return nil }
            #if DEBUG
            let before = ProjectCounts.of(&shard)
            defer { assert(ProjectCounts.of(&shard) == before, "a read changed the counts of project \(id)") }
            #endif
            return body(&shard)
        }
    }

    /// Runs `body` on the project part alone (its `shards` are empty: log, topics, faults,
    /// counters) with its lock held; nil once the project was removed. A shard's lock may be
    /// held around it, never taken inside it.
    func withProjectPart<Result>(_ body: (inout ProjectState) -> Result) -> Result? {
        project.withLock { project in
            guard !project.isRemoved else { return nil }
            defer { noteLogFullness(nextSequence: project.log.nextSequence) }
            return body(&project)
        }
    }

    /// The counter a send would take past its maximum in the message log, if any.
    var exhaustedLog: CounterExhausted? {
        logIsFull.load(ordering: .relaxed) ? CounterExhausted(counter: .logSequence) : nil
    }

    private static func isFull(nextSequence: Int) -> Bool {
        Counter.check(.logSequence, at: nextSequence) != nil
    }

    private func noteLogFullness(nextSequence: Int) {
        let full = Self.isFull(nextSequence: nextSequence)
        if full != logIsFull.load(ordering: .relaxed) { logIsFull.store(full, ordering: .relaxed) }
    }

    /// Runs `body` on the whole project, every shard moved in, with every lock held (shards in
    /// index order, then the project part), and adds any change of its counts to the stripe's
    /// totals; nil once the project was removed.
    func withWholeProject<Result>(_ body: (inout ProjectState) -> Result) -> Result? {
        guard changes.isListening else { return withWholeProject(counting: body) }
        guard let (result, changed) = withWholeProjectKeepingChanges(body) else { return nil }
        tell(changed)
        return result
    }

    /// `withWholeProject` that hands back the delivery changes it noted (none while nobody
    /// listens) instead of telling them: for a caller that holds other core locks (the
    /// directory's stripes), which tells them with `tell` once it has released those.
    func withWholeProjectKeepingChanges<Result>(_ body: (inout ProjectState) -> Result) -> (result: Result, changes: [DeliveryChange])? {
        guard changes.isListening else { return withWholeProject(counting: body).map { ($0, []) } }
        var changed: [DeliveryChange] = []
        let result = withWholeProject(counting: { project -> Result in
            for index in project.shards.indices { project.shards[index].deliveries.startRecording() }
            defer { for index in project.shards.indices { changed += project.shards[index].deliveries.takeChanges() } }
            return body(&project)
        })
        return result.map { ($0, changed) }
    }

    /// Tells the listener of `changed`, kept by `withWholeProjectKeepingChanges`; called with
    /// no core lock held.
    func tell(_ changed: [DeliveryChange]) {
        changes.tell(project: id, changed)
    }

    private func withWholeProject<Result>(counting body: (inout ProjectState) -> Result) -> Result? {
        withEveryLock { project, shards in
            guard !project.isRemoved else { return nil }
            // Moved in and out by swapping arrays: no shard is copied.
            swap(&project.shards, &shards)
            defer { swap(&project.shards, &shards) }
            defer { noteLogFullness(nextSequence: project.log.nextSequence) }
            let before = ProjectCounts(of: project)
            let result = body(&project)
            let after = ProjectCounts(of: project)
            if after != before { totals.withLock { $0.add(after, minus: before) } }
            return result
        }
    }

    // MARK: Quotas

    /// The project's limits.
    var quotaLimits: QuotaLimits {
        quota.withLock { $0.limits }
    }

    /// Changes the project's limits with `change`, under their lock, and returns them; a change
    /// that leaves them inconsistent (`QuotaLimits.isConsistent`) is not made (nil). The windows
    /// counted so far are kept.
    func updateQuotaLimits(_ change: (inout QuotaLimits) -> Void) -> QuotaLimits? {
        quota.withLock { quota in
            var limits = quota.limits
            change(&limits)
            guard limits.isConsistent else { return nil }
            quota.limits = limits
            hasQuotas.store(!limits.isOff, ordering: .relaxed)
            return limits
        }
    }

    /// Whether the project has any limit (one atomic load).
    var hasQuotaLimits: Bool {
        hasQuotas.load(ordering: .relaxed)
    }

    /// What the project's limits say to a send at `now`. `countsMessage`: the send is an FCM
    /// message, which the project's window counts (an APNs push is checked against its device's
    /// limit only).
    func admitSend(countsMessage: Bool, now: Timestamp) -> SendAdmission {
        quota.withLock { quota -> SendAdmission in
            guard countsMessage, let limit = quota.limits.projectMessagesPerMinute else {
                return .admitted(limits: quota.limits, counted: false)
            }
            guard quota.messages.take(limit: limit, lengthSeconds: 60, now: now) else { return .refused }
            return .admitted(limits: quota.limits, counted: true)
        }
    }

    /// Gives back the message `admitSend` counted for a send that a device's limit refused:
    /// Google does not count 429s.
    func giveBackMessage() {
        quota.withLock { $0.messages.giveBack() }
    }

    /// Counts an FCM send refused before it reached the core with a client error (400–499 but
    /// 429), which Google counts against the project's messages. A window already full stays so.
    func countClientError(now: Timestamp) {
        guard hasQuotas.load(ordering: .relaxed) else { return }
        quota.withLock { quota in
            guard let limit = quota.limits.projectMessagesPerMinute else { return }
            _ = quota.messages.take(limit: limit, lengthSeconds: 60, now: now)
        }
    }

    /// Counts `count` topic subscriptions added or removed at `now`; false (nothing counted)
    /// when the project's limit refuses them.
    func admitSubscriptions(_ count: Int, now: Timestamp) -> Bool {
        guard hasQuotas.load(ordering: .relaxed) else { return true }
        return quota.withLock { quota in
            guard let limit = quota.limits.topicSubscriptionsPerSecond else { return true }
            return quota.subscriptions.take(count, limit: limit, lengthSeconds: 1, now: now)
        }
    }

    /// Takes the whole project out (it is being removed); nil when it was already.
    func remove() -> ProjectState? {
        withEveryLock { project, shards in
            guard !project.isRemoved else { return nil }
            var removed = ProjectState.removed(id)
            swap(&removed, &project)
            swap(&removed.shards, &shards)
            // What the locks get back: empty shards, marked removed.
            shards = Array(repeating: DeviceShard.removed, count: removed.shards.count)
            totals.withLock { $0.add(ProjectCounts(), minus: ProjectCounts(of: removed)) }
            return removed
        }
    }

    /// Runs `body` with every lock held, shards in index order then the project part, on the
    /// shards moved out of their locks (swapped with empty ones, and back after; `body` leaves
    /// as many as it got): moved, not copied, so that nothing else holds a reference to a
    /// shard's storage when its lock is released, and its next change copies nothing.
    private func withEveryLock<Result>(_ body: (inout ProjectState, inout [DeviceShard]) -> Result) -> Result {
        var taken = [DeviceShard]()
        taken.reserveCapacity(shards.count)
        func lock(from index: Int) -> Result {
            guard index < shards.count else { return project.withLock { body(&$0, &taken) } }
            return shards[index].withLock { shard in
                taken.append(DeviceShard())
                swap(&taken[index], &shard)
                defer { swap(&taken[index], &shard) }
                return lock(from: index + 1)
            }
        }
        return lock(from: 0)
    }
}
