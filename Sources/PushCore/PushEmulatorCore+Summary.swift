extension PushEmulatorCore {
    /// The counts `/metrics` reports; reads, changes nothing (a pending delivery whose time ran
    /// out but that no read has expired yet still counts as pending). The counts are kept as the
    /// state changes (`ProjectTable.totals`): a scrape costs the same whatever the state holds.
    public func summary() -> CoreSummary {
        let (totals, faultsFired) = state.withLock { ($0.projects.totals, $0.faultsFired) }
        return CoreSummary(
            deliveries: totals.deliveries.byState, devices: totals.devices, connectedDevices: totals.connectedDevices,
            faultsFired: faultsFired)
    }
}
