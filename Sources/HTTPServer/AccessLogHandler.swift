import Logging

/// The access log's swift-log handler: writes each request's event as one line, in the text or
/// JSON format of docs/server.md, to its loop's `AccessLogLines`. It knows the access log's
/// metadata keys (`AccessLog.Field`) and writes them in a fixed order; other metadata is left out.
struct AccessLogHandler: LogHandler {
    let format: AccessLogFormat
    let lines: AccessLogLines
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = event.metadata ?? [:]
        func text(_ field: AccessLog.Field) -> String { fields[field.rawValue]?.description ?? "-" }
        switch format {
        case .text:
            lines.append(
                "\(text(.remote)) \"\(text(.method)) \(text(.path)) \(text(.protocol))\" \(text(.status)) \(text(.bytes)) \(text(.durationMs))ms\n")
        case .json:
            var line = "{"
            for field in AccessLog.Field.allCases {
                guard let value = fields[field.rawValue] else { continue }
                if line.count > 1 { line += "," }
                line += "\"\(field.rawValue)\":"
                // Numbers are logged as `stringConvertible` values and written bare; text is quoted.
                if case .string(let string) = value { line += Self.quoted(string) } else { line += value.description }
            }
            lines.append(line + "}\n")
        }
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
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
