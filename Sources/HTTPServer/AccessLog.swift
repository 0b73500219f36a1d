import Logging

/// One loop's access log: one swift-log event per request, written by `AccessLogHandler` into
/// the loop's buffered lines (see docs/ARCHITECTURE.md). Confined to the loop's thread.
final class AccessLog {
    /// The metadata keys of a request's event, in the order the JSON format writes them.
    enum Field: String, CaseIterable {
        case remote, method, path, `protocol`, status, bytes, durationMs
    }

    private let logger: Logger
    private let lines: AccessLogLines

    init(format: AccessLogFormat, fd: Int32) {
        let lines = AccessLogLines(fd: fd)
        self.lines = lines
        logger = Logger(label: "push-emulator.access") { _ in AccessLogHandler(format: format, lines: lines) }
    }

    func record(_ request: HTTPRequest, status: Int, bytes: Int, startedAt: UInt64) {
        let micros = (MonotonicClock.now() &- startedAt) / 1000
        let target = request.query.isEmpty ? request.path : request.path + "?" + request.query
        logger.info("request", metadata: [
            Field.remote.rawValue: .string(request.remoteAddress),
            Field.method.rawValue: .string(request.method),
            Field.path.rawValue: .string(target),
            Field.protocol.rawValue: .string(request.version.rawValue),
            Field.status.rawValue: .stringConvertible(status),
            Field.bytes.rawValue: .stringConvertible(bytes),
            Field.durationMs.rawValue: .stringConvertible(Milliseconds(micros: micros)),
        ])
    }

    /// Writes out the lines logged since the last flush (the loop calls this after each batch).
    func flush() {
        lines.flush()
    }
}

/// A duration in milliseconds with three decimals (`0.120`): as the text line shows it, and a
/// JSON number as it stands.
private struct Milliseconds: CustomStringConvertible, Sendable {
    let micros: UInt64

    var description: String { "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())" }
}
