/// The per-project limits (docs/quotas.md): off unless `--quotas google`, a `--quota-*` option
/// or the admin API sets them.
extension PushEmulatorCore {
    /// The limits of `project` (those a new project starts with when there is none yet).
    public func quotaLimits(project: String) -> QuotaLimits {
        directory.slot(project)?.quotaLimits ?? configuration.quotaLimits
    }

    /// Changes the limits of `project` (made when there is none) with `change`, in one step, and
    /// returns them; nil (nothing changed) when the result is not consistent
    /// (`QuotaLimits.isConsistent`). The windows counted so far are kept. A project made again by
    /// a reset or an import starts with the command line's.
    @discardableResult
    public func updateQuotaLimits(project: String, _ change: (inout QuotaLimits) -> Void) -> QuotaLimits? {
        directory.slot(creating: project).updateQuotaLimits(change)
    }

    /// Replaces the limits of `project` (`updateQuotaLimits`).
    @discardableResult
    public func setQuotaLimits(project: String, _ limits: QuotaLimits) -> QuotaLimits? {
        updateQuotaLimits(project: project) { $0 = limits }
    }

    /// Counts an FCM send of `project` that was refused with a client error before it reached
    /// `send` (a request that does not decode, for one): Google counts client errors but 429
    /// against the project's messages.
    /// A project not made yet is not made for it (a malformed request does not make a project).
    public func countClientError(project: String) {
        directory.slot(project)?.countClientError(now: now)
    }

    /// Requests refused by each limit since the start.
    public var throttledCounts: [QuotaKind: Int] {
        quotaCounters.refusedByKind
    }

    /// Whether `project`'s limit lets `count` topic subscriptions change now (counting them
    /// when it does).
    func admitSubscriptions(project: String, _ count: Int) -> Bool {
        // A project made by this call starts with the command line's limits, which count it.
        guard let slot = directory.slot(project) ?? (configuration.quotaLimits.isOff ? nil : directory.slot(creating: project))
        else { return true }
        guard slot.admitSubscriptions(count, now: now) else {
            quotaCounters.count(.topicSubscriptions)
            return false
        }
        return true
    }
}

extension PushEmulatorCore {
    /// Hands the delayed collapsible messages whose time has come on the emulator's clock to their
    /// devices' open streams (docs/quotas.md). The server calls it every second, and the clock's
    /// moves call it; it returns at once while no delayed message waits.
    public func releaseHeldDeliveries() {
        guard quotaCounters.hasWaiting else { return }
        let now = self.now
        for slot in directory.slots {
            for index in 0..<DeviceShard.count {
                guard let (notified, reached) = slot.withShard(index, { $0.releaseHeld(at: now) }) else { continue }
                quotaCounters.noteReleased(reached)
                for subscriber in notified { subscriber.drain() }
            }
        }
    }

    /// Collapsible messages delayed since the start.
    public var delayedCollapsibleCount: Int {
        quotaCounters.delayedCount
    }
}
