import ByteCoding
import HTTPServer
import PushCore

/// Reads the JSON object body of an emulator control-plane request, rejecting malformed JSON and
/// unknown fields the way Google's APIs do.
struct JSONRequestBody {
    let object: JSONObject

    /// Parses the body; an empty body is `{}`.
    init(_ request: HTTPRequest, allowedKeys: Set<String>) throws(GoogleError) {
        if request.body.isEmpty {
            object = JSONObject()
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw GoogleError.invalidJSONPayload(error)
        }
        guard case .object(let object) = value else {
            throw GoogleError.invalidArgument("Invalid JSON payload received. The request body must be a JSON object.")
        }
        for key in object.keys where !allowedKeys.contains(key) {
            throw GoogleError.invalidArgument(
                "Invalid JSON payload received. Unknown name \"\(key)\": Cannot find field.",
                fieldViolations: [GoogleFieldViolation(field: key, description: "Unknown name \"\(key)\": Cannot find field.")])
        }
        self.object = object
    }

    /// Reads a JSON object that is already parsed (a nested field), rejecting unknown keys;
    /// `path` prefixes the keys in error messages.
    init(object: JSONObject, allowedKeys: Set<String>, path: String) throws(GoogleError) {
        for key in object.keys where !allowedKeys.contains(key) {
            let description = "Unknown name \"\(key)\" at '\(path)': Cannot find field."
            throw GoogleError.invalidArgument(
                "Invalid JSON payload received. " + description,
                fieldViolations: [GoogleFieldViolation(field: path, description: description)])
        }
        self.object = object
    }

    /// An object field, or nil when absent or null.
    func object(_ key: String) throws(GoogleError) -> JSONObject? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        case let other?: throw Self.typeError(key, "TYPE_MESSAGE", other)
        }
    }

    /// A number field (any JSON number), or nil when absent or null.
    func double(_ key: String) throws(GoogleError) -> Double? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard let value = Double(text) else { throw Self.typeError(key, "TYPE_DOUBLE", .number(text)) }
            return value
        case let other?: throw Self.typeError(key, "TYPE_DOUBLE", other)
        }
    }

    /// A string field, or nil when absent or null.
    func string(_ key: String) throws(GoogleError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw Self.typeError(key, "TYPE_STRING", other)
        }
    }

    /// A boolean field, or nil when absent or null.
    func bool(_ key: String) throws(GoogleError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let other?: throw Self.typeError(key, "TYPE_BOOL", other)
        }
    }

    /// An array of strings, or nil when absent or null.
    func strings(_ key: String) throws(GoogleError) -> [String]? {
        switch object[key] {
        case nil, .null?: return nil
        case .array(let values)?:
            var strings: [String] = []
            for value in values {
                guard case .string(let text) = value else { throw Self.typeError(key, "TYPE_STRING", value) }
                strings.append(text)
            }
            return strings
        case let other?: throw Self.typeError(key, "TYPE_STRING", other)
        }
    }

    /// Whether the field is present (null included).
    func has(_ key: String) -> Bool { object[key] != nil }

    /// An integer field, or nil when absent or null.
    func integer(_ key: String) throws(GoogleError) -> Int64? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?:
            if let value = Int64(text) { return value }
            if let value = Double(text), value.rounded() == value, abs(value) < 9e18 { return Int64(value) }
            throw Self.typeError(key, "TYPE_INT64", .number(text))
        case .string(let text)?:
            // proto3 JSON accepts 64-bit integers as strings.
            guard let value = Int64(text) else { throw Self.typeError(key, "TYPE_INT64", .string(text)) }
            return value
        case let other?: throw Self.typeError(key, "TYPE_INT64", other)
        }
    }

    private static func typeError(_ key: String, _ type: String, _ value: JSONValue) -> GoogleError {
        let message = "Invalid value at '\(key)' (\(type)), \(value.jsonString)"
        return .invalidArgument(message, fieldViolations: [GoogleFieldViolation(field: key, description: message)])
    }
}
