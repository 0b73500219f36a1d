import ByteCoding

/// One entry of a `google.rpc.BadRequest` detail: the field at fault and what is wrong.
public struct GoogleFieldViolation: Sendable, Equatable {
    /// Path of the field, such as `message.data[0].value`; nil when the fault is at the top
    /// level (Google then leaves `field` out).
    public var field: String?
    /// What is wrong; Google repeats the error message here.
    public var description: String

    /// Makes a violation.
    public init(field: String?, description: String) {
        self.field = field
        self.description = description
    }
}

/// Builders for the entries of `error.details`, each an object whose first key is `@type`.
public enum GoogleErrorDetail {
    /// `google.rpc.BadRequest` with its field violations.
    public static func badRequest(_ violations: [GoogleFieldViolation]) -> JSONValue {
        let entries: [JSONValue] = violations.map { violation in
            var entry = JSONObject()
            if let field = violation.field { entry["field"] = .string(field) }
            entry["description"] = .string(violation.description)
            return .object(entry)
        }
        return ["@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": .array(entries)]
    }

    /// `google.firebase.fcm.v1.FcmError` with its error code, which the Admin SDKs read.
    public static func fcmError(_ code: FCMErrorCode) -> JSONValue {
        ["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": .string(code.rawValue)]
    }

    /// `google.rpc.QuotaFailure` with one violation: what was limited, and how.
    public static func quotaFailure(subject: String, description: String) -> JSONValue {
        [
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            "violations": [["subject": .string(subject), "description": .string(description)]],
        ]
    }

    /// `google.rpc.Help` with one link.
    public static func help(description: String, url: String) -> JSONValue {
        ["@type": "type.googleapis.com/google.rpc.Help", "links": [["description": .string(description), "url": .string(url)]]]
    }

    /// `google.rpc.ErrorInfo`: a machine-readable reason, its domain and metadata in order.
    public static func errorInfo(reason: String, domain: String, metadata: [(String, String)]) -> JSONValue {
        let metadataObject = JSONObject(metadata.map { JSONObject.Member(key: $0.0, value: .string($0.1)) })
        return [
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": .string(reason),
            "domain": .string(domain),
            "metadata": .object(metadataObject),
        ]
    }
}
