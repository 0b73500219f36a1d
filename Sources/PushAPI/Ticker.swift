import HTTPServer

/// Writes `count` numbered Server-Sent Events, one every `intervalMs`, then finishes — the
/// `/emulator/v1/debug/tick` route, for trying streaming by hand.
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
