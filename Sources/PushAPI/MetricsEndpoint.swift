import HTTPServer
import Locking
import PushCore

/// `GET /metrics`: the emulator's metrics in Prometheus' text format. Request and send counters
/// move as requests are answered, each event loop counting its own (`RequestMetrics`); the state
/// gauges are read from the core at each scrape. Every metric is listed in docs/server.md,
/// "Metrics".
final class MetricsEndpoint: Sendable {
    /// Prometheus' text exposition format, version 0.0.4.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let core: PushEmulatorCore
    /// The waiting reads of the message log, counted at each scrape.
    private let logWaiters: LogWaiters
    /// The webhooks, whose counts are read at each scrape.
    private let webhooks: Webhooks
    /// What the router's observer counts into.
    let requests: RequestMetrics
    /// Per origin, the core's fired-fault count at the last scrape and the counter's total: the
    /// core's count starts again at a reset, the counter only adds what is new.
    private let faultsCounted = Locked<[DeliveryOrigin: (seen: Int, total: Int)]>([:])

    /// Metrics of `core`, with request counters for `loops` event loops. Each emulator state
    /// (each unit test's, for one) counts alone.
    init(core: PushEmulatorCore, loops: Int, logWaiters: LogWaiters, webhooks: Webhooks) {
        self.core = core
        self.logWaiters = logWaiters
        self.webhooks = webhooks
        requests = RequestMetrics(loops: loops)
    }

    /// Adds the route.
    func register(in router: inout Router) {
        router.add("GET", "/metrics") { [self] _ in scrape() }
    }

    /// Reads the core's counts, then writes out every metric.
    func scrape() -> HTTPResponse {
        let summary = core.summary()
        var text = PrometheusText()
        requests.write(to: &text)
        let faults = faultsCounted.withLock { counted in
            DeliveryOrigin.allCases.map { origin in
                let now = summary.faultsFired[origin] ?? 0
                var entry = counted[origin, default: (0, 0)]
                if now > entry.seen { entry.total += now - entry.seen }
                entry.seen = now
                counted[origin] = entry
                return (origin, entry.total)
            }
        }
        text.family("push_emulator_faults_fired_total", type: "counter")
        for (origin, total) in faults {
            text.sample("push_emulator_faults_fired_total", ["origin": origin.rawValue], count: total)
        }
        // Kept by the core through resets: the counts only grow.
        let throttled = core.throttledCounts
        text.family("push_emulator_throttled_total", type: "counter")
        for kind in QuotaKind.allCases {
            text.sample("push_emulator_throttled_total", ["quota": kind.rawValue], count: throttled[kind] ?? 0)
        }
        text.family("push_emulator_collapsible_delayed_total", type: "counter")
        text.sample("push_emulator_collapsible_delayed_total", count: core.delayedCollapsibleCount)
        text.family("push_emulator_deliveries", type: "gauge")
        for state in DeliveryState.allCases {
            text.sample("push_emulator_deliveries", ["state": state.rawValue], gauge: summary.deliveries[state] ?? 0)
        }
        text.family("push_emulator_pending_deliveries", type: "gauge")
        text.sample("push_emulator_pending_deliveries", gauge: summary.pendingDeliveries)
        text.family("push_emulator_devices", type: "gauge")
        text.sample("push_emulator_devices", gauge: summary.devices)
        text.family("push_emulator_waiting_reads", type: "gauge")
        text.sample("push_emulator_waiting_reads", gauge: logWaiters.count)
        let (webhookCounts, webhookQueued) = webhooks.totals
        text.family("push_emulator_webhook_events_total", type: "counter")
        text.sample("push_emulator_webhook_events_total", ["outcome": "delivered"], count: webhookCounts.delivered)
        text.sample("push_emulator_webhook_events_total", ["outcome": "failed"], count: webhookCounts.failed)
        text.sample("push_emulator_webhook_events_total", ["outcome": "queueFull"], count: webhookCounts.queueFull)
        text.family("push_emulator_webhook_events_queued", type: "gauge")
        text.sample("push_emulator_webhook_events_queued", gauge: webhookQueued)
        text.family("push_emulator_connected_devices", type: "gauge")
        text.sample("push_emulator_connected_devices", gauge: summary.connectedDevices)
        var headers = HTTPHeaders()
        headers.set("content-type", Self.contentType)
        return HTTPResponse(status: 200, headers: headers, body: .bytes(Array(text.text.utf8)))
    }
}
