import CoreMetrics
import HTTPServer
import Locking
import Prometheus
import PushCore

/// `GET /metrics`: the emulator's metrics in Prometheus' text format. Request and send counters
/// move as requests are answered (`RequestMetrics`); the state gauges are read from the core at
/// each scrape. Every metric is listed in docs/server.md, "Metrics".
final class MetricsEndpoint: Sendable {
    /// Prometheus' text exposition format, version 0.0.4.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let registry: PrometheusCollectorRegistry
    private let core: PushEmulatorCore
    /// What the router's observer counts into.
    let requests: RequestMetrics
    private let deliveries: [(DeliveryState, CoreMetrics.Gauge)]
    private let pendingDeliveries: CoreMetrics.Gauge
    private let devices: CoreMetrics.Gauge
    private let connectedDevices: CoreMetrics.Gauge
    private let faultsFired: [(DeliveryOrigin, CoreMetrics.Counter)]
    /// The core's fired-fault counts the counters have been moved up to (the core counts, the
    /// scrape adds what is new).
    private let faultsCounted = Locked<[DeliveryOrigin: Int]>([:])

    /// Metrics of `core`, in a registry of their own (not the process-wide one: each emulator
    /// state, e.g. each unit test's, counts alone).
    init(core: PushEmulatorCore) {
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        self.registry = registry
        self.core = core
        requests = RequestMetrics(factory: factory)
        deliveries = DeliveryState.allCases.map { state in
            (state, CoreMetrics.Gauge(label: "push_emulator_deliveries", dimensions: [("state", state.rawValue)], factory: factory))
        }
        pendingDeliveries = CoreMetrics.Gauge(label: "push_emulator_pending_deliveries", factory: factory)
        devices = CoreMetrics.Gauge(label: "push_emulator_devices", factory: factory)
        connectedDevices = CoreMetrics.Gauge(label: "push_emulator_connected_devices", factory: factory)
        faultsFired = DeliveryOrigin.allCases.map { origin in
            (origin, CoreMetrics.Counter(label: "push_emulator_faults_fired_total", dimensions: [("origin", origin.rawValue)], factory: factory))
        }
    }

    /// Adds the route.
    func register(in router: inout Router) {
        router.add("GET", "/metrics") { [self] _ in scrape() }
    }

    /// Reads the core's counts into the gauges, then writes out every metric.
    func scrape() -> HTTPResponse {
        let summary = core.summary()
        for (state, gauge) in deliveries { gauge.record(summary.deliveries[state] ?? 0) }
        pendingDeliveries.record(summary.pendingDeliveries)
        devices.record(summary.devices)
        connectedDevices.record(summary.connectedDevices)
        faultsCounted.withLock { counted in
            for (origin, counter) in faultsFired {
                let now = summary.faultsFired[origin] ?? 0
                if now > counted[origin, default: 0] { counter.increment(by: now - counted[origin, default: 0]) }
                counted[origin] = now
            }
        }
        var headers = HTTPHeaders()
        headers.set("content-type", Self.contentType)
        return HTTPResponse(status: 200, headers: headers, body: .bytes(registry.emitToBuffer()))
    }
}
