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

    /// The counts of `shard`, read from counts it keeps (no device or delivery is visited).
    init(of shard: DeviceShard) {
        devices = shard.devices.count
        connectedDevices = shard.streams.count
        deliveries = shard.deliveries.counts
    }

    /// The counts of every shard of `project` (`project.shards` is empty while they are in
    /// their slot's locks).
    init(of project: ProjectState) {
        // Each shard read where it is: a copy of one retains and releases its every table.
        for index in project.shards.indices {
            devices += project.shards[index].devices.count
            connectedDevices += project.shards[index].streams.count
            deliveries.add(project.shards[index].deliveries.counts, minus: DeliveryCounts())
        }
    }

    /// The counts of `shard`, read where it is stored (a copy would retain and release its
    /// every part).
    static func of(_ shard: inout DeviceShard) -> ProjectCounts {
        ProjectCounts(of: shard)
    }

    /// Adds `added` and takes away `removed`.
    mutating func add(_ added: ProjectCounts, minus removed: ProjectCounts) {
        devices += added.devices - removed.devices
        connectedDevices += added.connectedDevices - removed.connectedDevices
        deliveries.add(added.deliveries, minus: removed.deliveries)
    }
}
