extension PushEmulatorCore {
    /// The counts `/metrics` reports; reads, changes nothing (a pending delivery whose time ran
    /// out but that no read has expired yet still counts as pending). The counts are kept as the
    /// state changes (`ProjectSlot` adds each project's changes to its directory stripe's): a
    /// scrape costs the same whatever the state holds.
    public func summary() -> CoreSummary {
        let totals = directory.counts
        return CoreSummary(
            deliveries: totals.deliveries.byState, devices: totals.devices, connectedDevices: totals.connectedDevices,
            faultsFired: faultsFired.byOrigin)
    }
}
