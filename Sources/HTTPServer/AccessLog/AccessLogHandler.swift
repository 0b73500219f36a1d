import Logging

/// The access log's swift-log handler: writes each event's message, one line, to its loop's
/// `AccessLogLines` (standard error unless configured otherwise). `AccessLog` makes the message
/// the finished text or JSON line; metadata is not written.
struct AccessLogHandler: LogHandler {
    let lines: AccessLogLines
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(event.message.description)
    }
}
