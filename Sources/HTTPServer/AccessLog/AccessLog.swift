import Logging

/// One loop's access log: one swift-log event per request, whose message is the finished text or
/// JSON line (docs/server.md), written by `AccessLogHandler` into the loop's buffered lines (see
/// docs/ARCHITECTURE.md). Confined to the loop's thread.
final class AccessLog {
    private let format: AccessLogFormat
    private let logger: Logger
    private let lines: AccessLogLines

    init(format: AccessLogFormat, fd: Int32) {
        let lines = AccessLogLines(fd: fd)
        self.format = format
        self.lines = lines
        logger = Logger(label: "push-emulator.access") { _ in AccessLogHandler(lines: lines) }
    }

    func record(_ request: HTTPRequest, status: Int, bytes: Int, startedAt: UInt64) {
        let micros = (MonotonicClock.now() &- startedAt) / 1000
        let milliseconds = "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())"
        let target = request.query.isEmpty ? request.path : request.path + "?" + request.query
        // The line is the message, not metadata: a metadata dictionary of the seven fields, made
        // and read back on every request, cost about 10,000 instructions (docs/performance.md).
        let line = switch format {
        case .text:
            "\(request.remoteAddress) \"\(request.method) \(target) \(request.version.rawValue)\" \(status) \(bytes) \(milliseconds)ms"
        case .json:
            "{\"remote\":\(Self.quoted(request.remoteAddress)),\"method\":\(Self.quoted(request.method)),\"path\":\(Self.quoted(target)),\"protocol\":\"\(request.version.rawValue)\",\"status\":\(status),\"bytes\":\(bytes),\"durationMs\":\(milliseconds)}"
        }
        logger.info(Logger.Message(stringLiteral: line))
    }

    /// Writes out the lines logged since the last flush (the loop calls this after each batch).
    func flush() {
        lines.flush()
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += (hex.count < 2 ? "\\u000" : "\\u00") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
