/// The counts `/metrics` reports of one project, or of several together (`ProjectDirectory`'s
/// totals of each stripe).
struct ProjectCounts: Sendable, Equatable {
    /// Registered devices.
    var devices = 0
    /// Devices with at least one `:stream` open.
    var connectedDevices = 0
    /// Stored deliveries by state.
    var deliveries = DeliveryCounts()

    /// No projects.
    init() {}

    /// The counts of `project`, read from counts it keeps (no device or delivery is visited).
    init(of project: ProjectState) {
        devices = project.devices.count
        connectedDevices = project.streams.count
        deliveries = project.deliveries.counts
    }

    /// The counts of `project`, read where it is stored (a copy would retain and release its
    /// every part).
    static func of(_ project: inout ProjectState) -> ProjectCounts {
        ProjectCounts(of: project)
    }

    /// Adds `added` and takes away `removed`.
    mutating func add(_ added: ProjectCounts, minus removed: ProjectCounts) {
        devices += added.devices - removed.devices
        connectedDevices += added.connectedDevices - removed.connectedDevices
        deliveries.add(added.deliveries, minus: removed.deliveries)
    }
}
