import ByteCoding
import HTTPServer
import Locking
import PushCore
import Synchronization

/// Every webhook (docs/webhooks.md): those of `--webhook`, which get every project's events, and
/// those added per project through the admin API, which go with the project (a reset of it, or
/// of the whole state, removes them).
///
/// While there is none, an event costs one atomic load. With some, the feed builds each event (its
/// JSON is made later, on each target's thread) and offers it to each target that wants it: this
/// list's lock, then each target's queue lock, each held for a copy or an append (the lock order
/// in docs/ARCHITECTURE.md).
final class Webhooks: Sendable {
    /// Targets in all, and per project.
    static let maximumTargets = 64
    static let maximumPerProject = 8

    private struct State {
        var targets: [WebhookTarget] = []
        var nextNumber = 1
    }

    private let state = Locked(State())
    /// What removed targets did, so that `/metrics` keeps counting them.
    private let retired = RetiredWebhookCounts()
    private let count = Atomic<Int>(0)
    /// The trust for `https://` targets that bring no CA of their own (`--webhook-ca`, else the
    /// system's store).
    private let defaultClient: HTTPClient
    /// Told how many targets there are: the core notes delivery changes while there is one.
    private let audience: DeliveryChangeListener

    /// Webhooks whose `https://` targets are checked with `defaultClient` unless they bring a CA.
    init(defaultClient: HTTPClient, audience: DeliveryChangeListener) {
        self.defaultClient = defaultClient
        self.audience = audience
    }

    /// Whether there is any target (one atomic load).
    var isActive: Bool { count.load(ordering: .relaxed) > 0 }

    /// Whether `count` events of `project` would be queued by some target: false when none gets
    /// the project's events, or every one that does has a full queue, in which case each counts
    /// the events dropped. A send asks before it makes its event, so that a webhook that hangs or
    /// keeps failing (its queue full) costs a send a lock and a count, not an event made and
    /// thrown away.
    func wants(project: String, count: Int = 1) -> Bool {
        guard isActive else { return false }
        return state.withLock { state in
            var wanted = false
            for target in state.targets where target.project == nil || target.project == project {
                if !target.fullness.isFull.load(ordering: .relaxed) { return true }
                wanted = true
            }
            guard wanted else { return false }
            for target in state.targets where target.project == nil || target.project == project { target.skip(count) }
            return false
        }
    }

    /// Offers `event` to each target that wants it (each target's lock taken inside this list's,
    /// for an append: a copy of the list cost more than the offers).
    func offer(_ event: FeedEvent) {
        state.withLock { state in
            for target in state.targets where target.wants(event) { target.offer(event) }
        }
    }

    /// Adds a target for `project` (nil: every project) posting to `url`, trusting `caPEM` if given.
    func add(url: HTTPClientURL, project: String?, caPEM: String? = nil) throws(GoogleError) -> WebhookTarget {
        let client: HTTPClient
        if let caPEM {
            do throws(HTTPClientError) {
                client = try HTTPClient(trust: .certificate(pem: caPEM))
            } catch {
                throw .invalidArgument("caCertificate is not a PEM certificate: \(error)")
            }
        } else {
            client = defaultClient
        }
        return try state.withLock { state throws(GoogleError) in
            guard state.targets.count < Self.maximumTargets else {
                throw .resourceExhausted("The emulator has \(Self.maximumTargets) webhooks, its most; delete one first.")
            }
            if let project, state.targets.count(where: { $0.project == project }) >= Self.maximumPerProject {
                throw .resourceExhausted("Project \(project) has \(Self.maximumPerProject) webhooks, its most; delete one first.")
            }
            let target = WebhookTarget(id: "w-\(state.nextNumber)", url: url, project: project, client: client)
            state.nextNumber += 1
            state.targets.append(target)
            count.store(state.targets.count, ordering: .relaxed)
            audience.addAudience(1)
            return target
        }
    }

    /// `project`'s targets (nil: those of every project), oldest first.
    func targets(of project: String?) -> [WebhookTarget] {
        state.withLock { $0.targets.filter { $0.project == project } }
    }

    /// Removes `project`'s target `id`; false when it has none of that id.
    func remove(id: String, project: String) -> Bool {
        remove { $0.project == project && $0.id == id } > 0
    }

    /// Removes the targets of `project`, or of every project (nil), keeping those of `--webhook`.
    func removeAdded(project: String?) {
        remove { target in target.project != nil && (project == nil || target.project == project) }
    }

    /// Removes the targets that match and stops their threads, waiting up to `milliseconds` for
    /// them to end: none on a request's path, where a request under way ends on its own.
    @discardableResult
    private func remove(waitingAtMostMilliseconds milliseconds: Int = 0, where matches: (WebhookTarget) -> Bool) -> Int {
        let removed = state.withLock { state in
            let removed = state.targets.filter(matches)
            state.targets.removeAll(where: matches)
            for target in removed { target.retire(into: retired) }
            count.store(state.targets.count, ordering: .relaxed)
            audience.addAudience(-removed.count)
            return removed
        }
        WebhookTarget.stop(removed, waitingAtMostMilliseconds: milliseconds)
        return removed.count
    }

    /// Stops every target at shutdown, waiting up to a second for their threads to end, so that
    /// they end before the process does; a request under way longer than that is cut off by the
    /// exit.
    func stopAll() {
        remove(waitingAtMostMilliseconds: 1_000) { _ in true }
    }

    /// Counts of every target since the start, and the events queued now (`/metrics`).
    var totals: (counts: WebhookCounts, queued: Int) {
        // Together, under the list's lock, which a removal holds as it retires a target.
        let (targets, retiredCounts) = state.withLock { ($0.targets, retired.total) }
        var counts = retiredCounts
        var queued = 0
        for target in targets {
            counts = counts + target.counts
            queued += target.queuedCount
        }
        return (counts, queued)
    }
}
