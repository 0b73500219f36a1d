import Locking

/// One project's state behind a lock of its own: sends, reads and changes of different projects
/// never wait on each other. The state is nil once the project has left the directory (a reset,
/// an import): a caller that found the slot just before finds nothing and looks again.
///
/// Each change of the project's counts (devices, streams, deliveries by state) is added to the
/// totals of its directory stripe, which `/metrics` sums: a scrape costs the same whatever the
/// number of projects, and no counter is shared by all sends.
final class ProjectSlot: Sendable {
    let id: String
    private let state: Locked<ProjectState?>
    private let totals: Locked<ProjectCounts>

    /// A slot for `project`, whose counts are added to `totals`.
    init(_ project: ProjectState, totals: Locked<ProjectCounts>) {
        let counts = ProjectCounts(of: project)
        id = project.projectID
        state = Locked(project)
        self.totals = totals
        totals.withLock { $0.add(counts, minus: ProjectCounts()) }
    }

    /// Runs `body` on the project with its lock held; nil once the project was removed.
    func withState<Result>(_ body: (inout ProjectState) -> Result) -> Result? {
        state.withLock { apply(body, to: &$0) }
    }

    /// Runs `body` on `project` unless it was removed, and adds any change of its counts to the
    /// stripe's totals.
    private func apply<Result>(_ body: (inout ProjectState) -> Result, to project: inout ProjectState?) -> Result? {
        guard project != nil else { return nil }
        let before = ProjectCounts.of(&project!)
        let result = body(&project!)
        let after = ProjectCounts.of(&project!)
        if after != before { totals.withLock { $0.add(after, minus: before) } }
        return result
    }

    /// `withState` for a `body` that changes none of the project's counts (checked in debug
    /// builds): an APNs push's lookup of its device, for one, skips reading them twice.
    func read<Result>(_ body: (inout ProjectState) -> Result) -> Result? {
        state.withLock { project in
            guard project != nil else { return nil }
            #if DEBUG
            let before = ProjectCounts.of(&project!)
            defer { assert(ProjectCounts.of(&project!) == before, "a read changed the counts of project \(id)") }
            #endif
            return body(&project!)
        }
    }

    /// Takes the project out (it is being removed); nil when it was already.
    func remove() -> ProjectState? {
        state.withLock { project in
            defer { project = nil }
            if let removed = project { totals.withLock { $0.add(ProjectCounts(), minus: ProjectCounts(of: removed)) } }
            return project
        }
    }
}
