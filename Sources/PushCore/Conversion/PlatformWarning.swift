import ByteCoding

/// A note beside an Android or web delivery: what the SDK drops, or what the system may do, that
/// would surprise the sender on a real device (docs/android.md, docs/web.md). Advice only.
public struct PlatformWarning: Sendable, Equatable {
    /// A stable machine-readable name.
    public var code: String
    /// What happens, in a sentence.
    public var message: String

    /// Makes a warning.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// `{"code", "message"}`.
    public var json: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "code", value: .string(code)),
            JSONObject.Member(key: "message", value: .string(message)),
        ]))
    }
}
