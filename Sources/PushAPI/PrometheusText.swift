/// Prometheus' text exposition format (version 0.0.4), written by hand: a `# TYPE` line per metric
/// family, then one line per sample, `name{label="value",...} value`.
struct PrometheusText {
    /// The text so far.
    private(set) var text = ""

    /// Starts a family: the samples that follow carry its name.
    mutating func family(_ name: String, type: String) {
        text += "# TYPE \(name) \(type)\n"
    }

    /// A counter's sample: a whole number.
    mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String> = [:], count: Int) {
        line(name, labels, String(count))
    }

    /// A gauge's sample, written as a floating-point number (`3.0`), as Prometheus' clients do.
    mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String> = [:], gauge: Int) {
        line(name, labels, String(Double(gauge)))
    }

    private mutating func line(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.key)=\"\(Self.escaped($0.value))\"" }.joined(separator: ",") + "}"
        }
        text += " " + value + "\n"
    }

    /// A label value with `\`, `"` and line feeds escaped, as the format asks.
    static func escaped(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
