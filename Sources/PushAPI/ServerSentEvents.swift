import HTTPServer

/// What every Server-Sent Events response of the emulator shares (a device's `:stream`, the
/// event feed): its headers and its heartbeat.
enum ServerSentEvents {
    /// `text/event-stream`, never cached, never buffered by a proxy (nginx reads
    /// `x-accel-buffering`).
    static var headers: HTTPHeaders {
        ["content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no"]
    }

    /// Writes a `: heartbeat` comment every `seconds` until the stream closes, so that proxies
    /// and clients see the connection is alive.
    static func scheduleHeartbeat(_ stream: ResponseStream, seconds: Int) {
        stream.loop.schedule(afterMilliseconds: seconds * 1000) {
            guard stream.write(": heartbeat\n\n") else { return }
            scheduleHeartbeat(stream, seconds: seconds)
        }
    }
}
