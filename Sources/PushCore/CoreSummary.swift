/// Counts of the emulator's state at one moment, for `/metrics`: read from totals the core keeps
/// as its state changes, so a scrape visits no project, device or delivery.
public struct CoreSummary: Sendable, Equatable {
    /// Stored deliveries by state, every state present (zero when none).
    public var deliveries: [DeliveryState: Int]
    /// Registered devices, across projects.
    public var devices: Int
    /// Devices with at least one `:stream` open, across projects.
    public var connectedDevices: Int
    /// Faults fired since the emulator started (resets do not clear it), by the send's API.
    public var faultsFired: [DeliveryOrigin: Int]

    /// Makes a summary; every state left out counts zero.
    public init(
        deliveries: [DeliveryState: Int] = [:], devices: Int = 0, connectedDevices: Int = 0,
        faultsFired: [DeliveryOrigin: Int] = [:]
    ) {
        self.deliveries = Dictionary(uniqueKeysWithValues: DeliveryState.allCases.map { ($0, deliveries[$0] ?? 0) })
        self.devices = devices
        self.connectedDevices = connectedDevices
        self.faultsFired = faultsFired
    }

    /// Deliveries waiting for their device: the pending queues' depth, across devices and projects.
    public var pendingDeliveries: Int { deliveries[.pending] ?? 0 }
}
