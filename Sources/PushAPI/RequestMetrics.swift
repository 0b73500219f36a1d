import CoreMetrics
import HTTPServer
import Locking

/// Counts requests by route, method and status, and sends by origin and outcome, through
/// swift-metrics. The router's observer (`Router.observer`) calls `record` once per request.
/// See docs/server.md, "Metrics".
final class RequestMetrics: Sendable {
    /// The counters one (route, method, status) moves, made at its first request.
    private struct Counters: Sendable {
        let requests: CoreMetrics.Counter
        /// The send counter of the request's outcome, when the route is a send.
        let send: CoreMetrics.Counter?
    }

    /// The send endpoints: their route template and method, the origin label they count under,
    /// and the status their API answers an unregistered token with.
    private static let sendRoutes: [(template: String, method: String, origin: String, unregisteredStatus: Int)] = [
        (FCMRoutes.sendTemplate, "POST", "fcm", 404),
        (APNsRoutes.sendTemplate, "POST", "apns", 410),
    ]

    /// The methods counted by name; any other counts as `OTHER` (the last number), so that a
    /// client cannot make up label values.
    private static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"]

    /// One (method, status) of a route, with its counters.
    private struct Entry: Sendable {
        /// The method's position in `methods` and the status, in one integer.
        let methodAndStatus: Int
        let counters: Counters
    }

    private let factory: any MetricsFactory
    /// By route number + 1 (0 for unmatched paths): the (method, status) pairs seen on the route,
    /// a few each, found by a scan, which costs less than hashing the template and method strings
    /// on every request.
    private let counters = Locked<[[Entry]]>([])

    /// Counts through `factory` (the emulator's Prometheus registry).
    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Counts one answered request.
    func record(route: MatchedRoute, method: String, status: Int) {
        let methodNumber = Self.methods.firstIndex(of: method) ?? Self.methods.count - 1
        let slot = route.number + 1
        let methodAndStatus = methodNumber << 32 | status
        let found = counters.withLock { counters in
            if slot < counters.count, let entry = counters[slot].first(where: { $0.methodAndStatus == methodAndStatus }) {
                return entry.counters
            }
            let made = makeCounters(template: route.template, method: Self.methods[methodNumber], status: status)
            while counters.count <= slot { counters.append([]) }
            counters[slot].append(Entry(methodAndStatus: methodAndStatus, counters: made))
            return made
        }
        found.requests.increment()
        found.send?.increment()
    }

    private func makeCounters(template: String, method: String, status: Int) -> Counters {
        let requests = CoreMetrics.Counter(
            label: "push_emulator_http_requests_total",
            dimensions: [("route", template), ("method", method), ("status", String(status))],
            factory: factory)
        guard let route = Self.sendRoutes.first(where: { $0.template == template && $0.method == method }) else {
            return Counters(requests: requests, send: nil)
        }
        let outcome = switch status {
        case 200..<300: "accepted"
        case route.unregisteredStatus: "unregistered"
        case 400: "invalid"
        default: "rejected"
        }
        let send = CoreMetrics.Counter(
            label: "push_emulator_sends_total", dimensions: [("origin", route.origin), ("outcome", outcome)], factory: factory)
        return Counters(requests: requests, send: send)
    }
}
