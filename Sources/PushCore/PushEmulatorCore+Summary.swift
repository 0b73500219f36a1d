extension PushEmulatorCore {
    /// The counts `/metrics` reports; reads, changes nothing (a pending delivery whose time ran
    /// out but that no read has expired yet still counts as pending).
    public func summary() -> CoreSummary {
        state.withLock { state in
            var deliveries: [DeliveryState: Int] = [:]
            var devices = 0
            var connectedDevices = 0
            for project in state.projects.values {
                devices += project.devices.values.count
                connectedDevices += project.streams.count
                project.deliveries.countByState(into: &deliveries)
            }
            return CoreSummary(
                deliveries: deliveries, devices: devices, connectedDevices: connectedDevices, faultsFired: state.faultsFired)
        }
    }
}
