import HTTPServer
import Locking

/// Counts requests by route, method and status, and sends by origin and outcome
/// (docs/server.md, "Metrics"). The router's observer (`Router.observer`) calls `record` once
/// per request, with the number of the event loop that read it: each loop counts in a table of
/// its own, whose lock only that loop and a scrape take, and `/metrics` adds the tables up when
/// it is read. Nothing here is shared by requests of different loops.
final class RequestMetrics: Sendable {
    /// The send endpoints: their route template and method, the origin label they count under,
    /// and the status their API answers an unregistered token with.
    private static let sendRoutes: [(template: String, method: String, origin: String, unregisteredStatus: Int)] = [
        (FCMRoutes.sendTemplate, "POST", "fcm", 404),
        (APNsRoutes.sendTemplate, "POST", "apns", 410),
    ]

    /// The methods counted by name; any other counts as `OTHER` (the last), so that a client
    /// cannot make up label values.
    private static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"]

    /// One (route, method, status) counted in one loop's table.
    private struct Entry: Sendable {
        /// The method's position in `methods` and the status, in one integer.
        let methodAndStatus: Int
        let template: String
        var count: Int
    }

    /// Each loop's counts: by route number + 1 (0 for unmatched paths), the (method, status)
    /// pairs seen on the route, a few each, found by a scan.
    private let tables: PerLoop<[[Entry]]>

    /// Counts for `loops` event loops (a request of a loop past the last counts in the last's
    /// table modulo their number).
    init(loops: Int) {
        tables = PerLoop(loops: loops) { [] }
    }

    /// Counts one answered request, read by loop number `loop`.
    func record(route: MatchedRoute, method: String, status: Int, loop: Int) {
        let methodNumber = Self.methods.firstIndex(of: method) ?? Self.methods.count - 1
        let slot = route.number + 1
        let methodAndStatus = methodNumber << 32 | status
        tables.withLock(loop: loop) { table in
            if slot < table.count, let index = table[slot].firstIndex(where: { $0.methodAndStatus == methodAndStatus }) {
                table[slot][index].count += 1
                return
            }
            while table.count <= slot { table.append([]) }
            table[slot].append(Entry(methodAndStatus: methodAndStatus, template: route.template, count: 1))
        }
    }

    /// Writes the request and send counters, every loop's tables added up (one lock at a time).
    func write(to text: inout PrometheusText) {
        // By route number + 1, the (method, status) pairs in the order they were first seen.
        var merged: [[Entry]] = []
        tables.forEach { copy in
            while merged.count < copy.count { merged.append([]) }
            for (slot, entries) in copy.enumerated() {
                for entry in entries {
                    if let index = merged[slot].firstIndex(where: { $0.methodAndStatus == entry.methodAndStatus }) {
                        merged[slot][index].count += entry.count
                    } else {
                        merged[slot].append(entry)
                    }
                }
            }
        }
        let entries = merged.flatMap { $0 }
        guard !entries.isEmpty else { return }
        text.family("push_emulator_http_requests_total", type: "counter")
        var sends: [(origin: String, outcome: String, count: Int)] = []
        for entry in entries {
            let method = Self.methods[entry.methodAndStatus >> 32]
            let status = entry.methodAndStatus & 0xFFFF_FFFF
            text.sample(
                "push_emulator_http_requests_total",
                ["route": entry.template, "method": method, "status": String(status)], count: entry.count)
            guard let (origin, outcome) = Self.sendOutcome(template: entry.template, method: method, status: status) else { continue }
            if let index = sends.firstIndex(where: { $0.origin == origin && $0.outcome == outcome }) {
                sends[index].count += entry.count
            } else {
                sends.append((origin, outcome, entry.count))
            }
        }
        guard !sends.isEmpty else { return }
        text.family("push_emulator_sends_total", type: "counter")
        for send in sends {
            text.sample("push_emulator_sends_total", ["origin": send.origin, "outcome": send.outcome], count: send.count)
        }
    }

    /// The origin and outcome a send route's answer counts under; nil for other routes.
    private static func sendOutcome(template: String, method: String, status: Int) -> (origin: String, outcome: String)? {
        guard let route = sendRoutes.first(where: { $0.template == template && $0.method == method }) else { return nil }
        let outcome = switch status {
        case 200..<300: "accepted"
        case route.unregisteredStatus: "unregistered"
        case 400: "invalid"
        default: "rejected"
        }
        return (route.origin, outcome)
    }
}
