import HTTPServer

/// Writes `count` numbered Server-Sent Events, one every `intervalMs`, then finishes: the body
/// of `/emulator/v1/debug/tick` (`DebugRoutes`).
enum Ticker {
    static func run(stream: ResponseStream, count: Int, intervalMs: Int, sent: Int = 0) {
        guard !stream.isClosed else { return }
        guard sent < count else {
            stream.finish()
            return
        }
        stream.write("id: \(sent)\ndata: {\"tick\":\(sent)}\n\n")
        stream.loop.schedule(afterMilliseconds: intervalMs) {
            run(stream: stream, count: count, intervalMs: intervalMs, sent: sent + 1)
        }
    }
}
