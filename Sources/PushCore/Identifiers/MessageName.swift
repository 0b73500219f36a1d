import ByteCoding

/// The name of an accepted message, `projects/{project}/messages/{id}`, kept as its two parts.
///
/// Every send has a name, stored with its log entry and each of its deliveries, yet few are
/// ever read as text (by the message log, a device event or a snapshot): made as text on each
/// send it cost an allocation, and more again to free it. The send's answer and the payload's
/// `gcm.message_id` write their bytes from the parts (docs/performance.md).
public struct MessageName: Sendable, Hashable, CustomStringConvertible {
    /// The project's id: the project's own string, shared rather than copied.
    public let project: String
    /// The message id, a decimal number like the real ones (`6810356097230477954`).
    public let id: UInt64

    /// The name of message `id` of `project`.
    public init(project: String, id: UInt64) {
        self.project = project
        self.id = id
    }

    /// Reads `projects/{project}/messages/{id}` with a decimal id (as a state snapshot holds
    /// it); nil for any other text.
    public init?(parsing text: String) {
        let prefix = "projects/", suffix = "/messages"
        guard let slash = text.lastIndex(of: "/") else { return nil }
        let digits = text[text.index(after: slash)...]
        let head = text[..<slash]
        // Long enough for the prefix and the suffix not to overlap (`projects/messages` is no name).
        guard head.hasPrefix(prefix), head.hasSuffix(suffix), head.count >= prefix.count + suffix.count,
            let id = UInt64(digits), String(id) == digits
        else { return nil }
        self.init(project: String(head.dropFirst(prefix.count).dropLast(suffix.count)), id: id)
    }

    /// The message id as text.
    public var messageID: String { DecimalDigits.string(of: id) }

    /// `projects/{project}/messages/{id}`.
    public var text: String { "projects/\(project)/messages/\(messageID)" }

    /// `text`.
    public var description: String { text }

    /// Appends `text` as a JSON string: an answer written so needs no string of its own.
    @inlinable
    public func writeJSONString<Output: JSONOutput>(to output: inout Output) {
        JSONSerializer.append("\"projects/", to: &output)
        JSONSerializer.writeEscaped(project, to: &output)
        JSONSerializer.append("/messages/", to: &output)
        // Digits: nothing to escape.
        DecimalDigits.withDigits(of: id) { output.appendBytes($0) }
        output.appendByte(0x22)
    }
}
