import Locking
import Synchronization

/// Every project's slot by id. The table is split in stripes, each behind a lock held only to
/// find, add or remove a slot (a dictionary lookup), never while a project is worked on: sends
/// to different projects meet on no lock, and sends to one project only on its slot's.
///
/// Lock order (docs/ARCHITECTURE.md, "Concurrency: what is locked where"): stripes in index
/// order, then one project's shards in index order, then its project part (projects one after
/// another, in id order, never two at once), then `CrossProjectIndexes`. Whatever holds several
/// takes them in that order; most take one or two at a time.
final class ProjectDirectory: Sendable {
    static let stripeCount = 16
    private let stripes: [Locked<[String: ProjectSlot]>]
    /// The counts of each stripe's projects together (kept by `ProjectSlot`).
    private let totals: [Locked<ProjectCounts>]
    /// Seeds each new project's random source (generated tokens, `apns-id`s, fault draws).
    private let seeds: Locked<any RandomNumberGenerator & Sendable>
    /// The sequence of the next slot made.
    private let nextSequence = Atomic<Int>(1)
    /// The limits each new project starts with (`--quotas` and the `--quota-*` options).
    private let quotaLimits: QuotaLimits
    /// Who hears of each project's delivery changes.
    private let changes: DeliveryChangeListener

    init(random: sending any RandomNumberGenerator & Sendable, quotaLimits: QuotaLimits, changes: DeliveryChangeListener) {
        self.quotaLimits = quotaLimits
        self.changes = changes
        stripes = (0..<Self.stripeCount).map { _ in Locked([:]) }
        totals = (0..<Self.stripeCount).map { _ in Locked(ProjectCounts()) }
        seeds = Locked(random)
    }

    /// The stripe of `id`: its length and last byte, which tell apart the ids a test or a load
    /// generator makes (`project-1` … `project-64`) at the cost of two loads, not a hash.
    private func stripeIndex(of id: String) -> Int {
        let mixed = id.utf8.count &* 31 &+ Int(id.utf8.last ?? 0)
        return mixed & (Self.stripeCount - 1)
    }

    private func stripe(of id: String) -> Locked<[String: ProjectSlot]> {
        stripes[stripeIndex(of: id)]
    }

    /// The counts of every project together: one lock per stripe, whatever the number of projects.
    var counts: ProjectCounts {
        var sum = ProjectCounts()
        for stripe in totals { sum.add(stripe.withLock { $0 }, minus: ProjectCounts()) }
        return sum
    }

    /// The slot of project `id`, or nil.
    func slot(_ id: String) -> ProjectSlot? {
        stripe(of: id).withLock { $0[id] }
    }

    /// The slot of project `id`, made (empty) when there is none.
    func slot(creating id: String) -> ProjectSlot {
        stripe(of: id).withLock { slots in
            if let slot = slots[id] { return slot }
            var project = ProjectState(projectID: id)
            project.random = SeededRandomNumberGenerator(seed: seeds.withLock { $0.next() })
            let slot = ProjectSlot(
                project, sequence: nextSequence.wrappingAdd(1, ordering: .relaxed).oldValue, totals: totals[stripeIndex(of: id)],
                quotaLimits: quotaLimits, changes: changes)
            slots[id] = slot
            return slot
        }
    }

    /// Removes project `id` and returns its state; nil when there is none. `whileRemoved` runs
    /// on the removed state before a project of the same id can be made again (its stripe is
    /// still held): the cross-project indexes forget the old project before a new one notes
    /// anything.
    func remove(_ id: String, whileRemoved: (ProjectState) -> Void) -> ProjectState? {
        stripe(of: id).withLock { slots in
            guard let removed = slots.removeValue(forKey: id)?.remove() else { return nil }
            whileRemoved(removed)
            return removed
        }
    }

    /// Every slot, in id order (a snapshot of the table: slots added meanwhile are not in it).
    var slots: [ProjectSlot] {
        stripes.flatMap { stripe in stripe.withLock { Array($0.values) } }.sorted { $0.id < $1.id }
    }

    /// Runs `body` with every stripe locked (no project can come or go), on every slot in id order.
    func withEveryStripeLocked<Result>(_ body: ([ProjectSlot]) -> Result) -> Result {
        func lock(from index: Int, _ gathered: [ProjectSlot]) -> Result {
            guard index < stripes.count else { return body(gathered.sorted { $0.id < $1.id }) }
            return stripes[index].withLock { slots in lock(from: index + 1, gathered + slots.values) }
        }
        return lock(from: 0, [])
    }

    /// Replaces every project with `projects` (a state import, a reset of everything), each
    /// reseeded; returns the projects that were there. `meanwhile` runs when every old project
    /// is out (each after the work that held its lock) and before any new one can be reached:
    /// no project's lock is held then, so it may reset what projects draw from.
    func replaceAll(with projects: [String: ProjectState], meanwhile: () -> Void) -> [ProjectState] {
        // The new projects are listed in id order.
        var sequences = [String: Int]()
        for id in projects.keys.sorted() { sequences[id] = nextSequence.wrappingAdd(1, ordering: .relaxed).oldValue }
        func replace(from index: Int, _ removed: [ProjectState]) -> [ProjectState] {
            guard index < stripes.count else {
                meanwhile()
                return removed
            }
            return stripes[index].withLock { slots in
                let taken = slots.values.compactMap { $0.remove() }
                slots = [:]
                for (id, project) in projects where stripeIndex(of: id) == index {
                    var project = project
                    project.random = SeededRandomNumberGenerator(seed: seeds.withLock { $0.next() })
                    slots[id] = ProjectSlot(project, sequence: sequences[id]!, totals: totals[index], quotaLimits: quotaLimits, changes: changes)
                }
                return replace(from: index + 1, removed + taken)
            }
        }
        return replace(from: 0, [])
    }
}
