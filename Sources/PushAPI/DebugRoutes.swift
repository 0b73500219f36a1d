import HTTPServer
import PushCore

/// `GET /emulator/v1/debug/tick`: numbered Server-Sent Events on a timer, for trying streaming
/// through a proxy or client by hand, and for the streaming tests. Served only with
/// `--enable-debug-routes` (see docs/server.md); without it the path is unknown (404).
struct DebugRoutes {
    /// The most events one tick stream writes.
    static let counts = 1...1_000_000
    /// The milliseconds allowed between two events: up to a minute.
    static let intervals = 1...60_000

    func register(in router: inout Router) {
        router.add("GET", "/emulator/v1/debug/tick") { request in
            let count: Int
            let intervalMs: Int
            do throws(GoogleError) {
                count = try Self.number(request, "count", in: Self.counts, default: 10)
                intervalMs = try Self.number(request, "intervalMs", in: Self.intervals, default: 100)
            } catch {
                return GoogleErrorResponse.make(error)
            }
            return HTTPResponse(status: 200, headers: ["content-type": "text/event-stream", "cache-control": "no-cache"], body: .stream { stream in
                Ticker.run(stream: stream, count: count, intervalMs: intervalMs)
            })
        }
    }

    /// The query parameter `name` as a whole number within `range`, `fallback` when absent.
    private static func number(_ request: HTTPRequest, _ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(GoogleError) -> Int {
        guard let text = request.queryItem(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw GoogleError.invalidArgument(
                "Invalid value for \(name): \"\(text)\"; it must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }
}
