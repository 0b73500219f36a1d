/// Every project by id, with the sum of their counts (`totals`) kept as they change: `/metrics`
/// reads the sum instead of walking every project and delivery under the lock on each scrape.
///
/// Each access that can change a project (the subscripts' `_modify`, `removeValue`) takes the
/// project's counts before and after; a project keeps its counts itself (`DeliveryStore.counts`,
/// the device and stream tables' sizes), so both reads are O(1).
struct ProjectTable: Sendable {
    private var storage: [String: ProjectState]
    /// The counts of all projects together.
    private(set) var totals = ProjectCounts()

    /// No projects.
    init() {
        storage = [:]
    }

    /// These projects (a state import).
    init(_ projects: [String: ProjectState]) {
        storage = projects
        for project in projects.values { totals.add(ProjectCounts(of: project), minus: ProjectCounts()) }
    }

    /// The project `id`, or nil; changed in place, and setting nil removes it.
    subscript(id: String) -> ProjectState? {
        get { storage[id] }
        _modify {
            // Moved out and back: changed in place, the dictionary's storage is not copied.
            var project = storage.removeValue(forKey: id)
            let before = project.map(ProjectCounts.init(of:)) ?? ProjectCounts()
            defer {
                totals.add(project.map(ProjectCounts.init(of:)) ?? ProjectCounts(), minus: before)
                if let project { storage[id] = project }
            }
            yield &project
        }
    }

    /// The project `id`, made by `makeProject` when there is none; changed where it is stored,
    /// its key hashed once (every send goes through here).
    subscript(id: String, default makeProject: @autoclosure () -> ProjectState) -> ProjectState {
        get { storage[id] ?? makeProject() }
        _modify {
            let index = storage.index(forKey: id) ?? insert(makeProject(), for: id)
            let before = Self.counts(of: &storage.values[index])
            defer { totals.add(Self.counts(of: &storage.values[index]), minus: before) }
            yield &storage.values[index]
        }
    }

    /// Runs `body` on project `id` where it is stored, its key hashed once; nil when there is no
    /// such project. For reads on every APNs push: `body` gets the project `inout` only so that
    /// nothing is copied, and must leave its counts as they were (checked in debug builds).
    mutating func read<Result>(_ id: String, _ body: (inout ProjectState) -> Result) -> Result? {
        guard let index = storage.index(forKey: id) else { return nil }
        #if DEBUG
        let before = Self.counts(of: &storage.values[index])
        defer { assert(Self.counts(of: &storage.values[index]) == before, "a read changed project \(id)") }
        #endif
        return body(&storage.values[index])
    }

    /// Removes and returns the project `id`.
    mutating func removeValue(forKey id: String) -> ProjectState? {
        guard let removed = storage.removeValue(forKey: id) else { return nil }
        totals.add(ProjectCounts(), minus: ProjectCounts(of: removed))
        return removed
    }

    /// The project ids, in no order.
    var keys: Dictionary<String, ProjectState>.Keys { storage.keys }

    /// The projects, in no order.
    var values: Dictionary<String, ProjectState>.Values { storage.values }

    private mutating func insert(_ project: ProjectState, for id: String) -> Dictionary<String, ProjectState>.Index {
        totals.add(ProjectCounts(of: project), minus: ProjectCounts())
        storage[id] = project
        return storage.index(forKey: id)!
    }

    /// A project's counts, read where it is stored (a copy would retain and release its every part).
    private static func counts(of project: inout ProjectState) -> ProjectCounts {
        ProjectCounts(of: project)
    }
}
