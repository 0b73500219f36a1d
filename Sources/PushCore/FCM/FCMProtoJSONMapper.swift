import ByteCoding

/// Reads a JSON value as a proto message the way Google's JSON front end (ESF) does, and
/// writes it back in a canonical form: proto (snake_case) keys, enums by name, `null` and
/// proto3 defaults (`""`, `false`) left out.
///
/// Like ESF it keeps going after a fault and reports every one; the request's error
/// message is then the descriptions joined by newlines. Wording, from Google's answers:
/// - unknown key: `Invalid JSON payload received. Unknown name "foo" at 'message': Cannot find field.`
///   (no ` at '...'` at the top level)
/// - wrong type: `Invalid value at 'message.data[0].value' (TYPE_STRING), 12` — strings are
///   quoted as JSON, numbers as written; an object on a scalar field says
///   `Starting an object on a scalar field`; a list on a non-repeated field is
///   `Invalid JSON payload received. Unknown name "data" at 'message': Proto field is not repeating, cannot start list.`
/// - a second member of a oneof: `Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'topic'`
/// - a field given twice through its two names (`fcm_options` and `fcmOptions`) is this
///   emulator's wording: `Invalid JSON payload received. Field 'fcm_options' at 'message' is set twice.`
struct FCMProtoJSONMapper {
    private(set) var violations: [GoogleFieldViolation] = []

    /// Maps a request body; the root must be an object.
    mutating func mapRoot(_ value: JSONValue, as type: FCMProtoMessage) -> JSONObject {
        guard case .object(let object) = value else {
            violations.append(
                GoogleFieldViolation(
                    field: nil,
                    description: "Invalid JSON payload received. Unknown name \"\": Root element must be a message."))
            return JSONObject()
        }
        return mapMessage(object, as: type, path: "")
    }

    private static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path + "." + name
    }

    private static func at(_ path: String) -> String {
        path.isEmpty ? "" : " at '\(path)'"
    }

    private mutating func invalidValue(_ path: String, _ typeName: String, _ what: String) {
        violations.append(
            GoogleFieldViolation(field: path, description: "Invalid value at '\(path)' (\(typeName)), \(what)"))
    }

    private mutating func invalidName(_ key: String, parent: String, _ reason: String) {
        violations.append(
            GoogleFieldViolation(
                field: parent.isEmpty ? nil : parent,
                description: "Invalid JSON payload received. Unknown name \"\(key)\"\(Self.at(parent)): \(reason)"))
    }

    /// How Google quotes a rejected value: JSON for scalars.
    private static func quote(_ value: JSONValue) -> String {
        switch value {
        case .object: "Starting an object on a scalar field"
        default: value.jsonString
        }
    }

    mutating func mapMessage(_ object: JSONObject, as type: FCMProtoMessage, path: String) -> JSONObject {
        // Requests usually are canonical already: the output is made only from the first member
        // that changes (renamed, dropped or rewritten), and until then the input stands for it.
        var output: [JSONObject.Member]?
        func changed(before position: Int) {
            if output == nil { output = Array(object.members[..<position]) }
        }
        // Fields seen, by index: a bit set, since every request walks this (no message has 64 fields).
        var used: UInt64 = 0
        var oneofsSet: [(oneof: String, field: String)] = []
        for (position, member) in object.members.enumerated() {
            guard let index = type.fieldIndex(forKey: member.key) else {
                invalidName(member.key, parent: path, "Cannot find field.")
                changed(before: position)
                continue
            }
            let field = type.fields[index]
            if used & (1 << index) != 0 {
                violations.append(
                    GoogleFieldViolation(
                        field: Self.join(path, field.name),
                        description:
                            "Invalid JSON payload received. Field '\(field.name)'\(Self.at(path)) is set twice."))
                changed(before: position)
                continue
            }
            used |= 1 << index
            if member.value.isNull {
                changed(before: position)
                continue
            }
            if let oneof = field.oneof {
                if oneofsSet.contains(where: { $0.oneof == oneof }) {
                    invalidValue(path, "oneof", "oneof field '\(oneof)' is already set. Cannot set '\(field.name)'")
                    changed(before: position)
                    continue
                }
                oneofsSet.append((oneof, field.name))
            }
            if case .array = member.value, case .repeated = field.kind {
            } else if case .array = member.value {
                invalidName(member.key, parent: path, "Proto field is not repeating, cannot start list.")
                changed(before: position)
                continue
            }
            guard let mapped = mapValue(member.value, kind: field.kind, path: { Self.join(path, field.name) }) else {
                changed(before: position)
                continue
            }
            // proto3 leaves scalar defaults unset, except in a oneof, where setting is meaningful.
            if field.oneof == nil, mapped == .string("") || mapped == .bool(false) {
                changed(before: position)
                continue
            }
            // An unchanged nested value shares its storage with the input, so this compares little.
            if member.key != field.name || mapped != member.value { changed(before: position) }
            output?.append(JSONObject.Member(key: field.name, value: mapped))
        }
        return output.map(JSONObject.init) ?? object
    }

    /// The canonical value, or nil after recording a violation.
    /// `path` is built only when needed: for a violation, or to descend.
    private mutating func mapValue(_ value: JSONValue, kind: FCMProtoKind, path makePath: () -> String) -> JSONValue? {
        switch kind {
        case .string:
            if case .string = value { return value }
        case .bool:
            if case .bool = value { return value }
        case .int32:
            let text = value.numberText ?? value.stringValue
            if let text, Int32(text) != nil { return .number(text) }
        case .float:
            if let text = value.numberText { return .number(text) }
            if let text = value.stringValue {
                if ["NaN", "Infinity", "-Infinity"].contains(text) { return value }
                if (try? JSONParser.parse(text))?.numberText != nil { return .number(text) }
            }
        case .enumeration(let type):
            if let name = value.stringValue,
                let match = type.values.first(where: { $0.name.lowercased() == name.lowercased() })
            {
                return .string(match.name)
            }
            if let text = value.numberText, let number = Int(text),
                let match = type.values.first(where: { $0.number == number })
            {
                return .string(match.name)
            }
        case .duration:
            guard case .string(let text) = value else {
                if case .object = value { break }
                invalidValue(makePath(), kind.typeName, "Invalid data type for duration, value is \(value.jsonString)")
                return nil
            }
            do {
                _ = try GoogleDuration(parsing: text)
                return value
            } catch {
                invalidValue(makePath(), kind.typeName, error.message)
                return nil
            }
        case .timestamp:
            guard case .string(let text) = value else { break }
            if Self.isRFC3339(text) { return value }
            invalidValue(makePath(), kind.typeName, "Invalid time format: Failed to parse input")
            return nil
        case .stringMap:
            guard case .object(let object) = value else { break }
            // The usual case, every value a string, keeps the object as it is.
            if object.members.allSatisfy({ $0.value.stringValue != nil }) { return value }
            var output = JSONObject()
            for (position, member) in object.members.enumerated() {
                let entryPath = "\(makePath())[\(position)]"
                switch member.value {
                case .string:
                    output.members.append(member)
                case .array:
                    invalidName("value", parent: entryPath, "Proto field is not repeating, cannot start list.")
                default:
                    invalidValue(entryPath + ".value", FCMProtoKind.string.typeName, Self.quote(member.value))
                }
            }
            return .object(output)
        case .message(let type):
            guard case .object(let object) = value else { break }
            return .object(mapMessage(object, as: type, path: makePath()))
        case .structObject:
            if case .object = value { return value }
        case .repeated(let element):
            guard case .array(let elements) = value else { break }
            var output: [JSONValue] = []
            let path = makePath()
            for (position, item) in elements.enumerated() {
                if case .array = item {
                    invalidValue("\(path)[\(position)]", element.typeName, "Nested lists are not allowed")
                } else if item.isNull {
                    invalidValue("\(path)[\(position)]", element.typeName, "null")
                } else if let mapped = mapValue(item, kind: element, path: { "\(path)[\(position)]" }) {
                    output.append(mapped)
                }
            }
            return .array(output)
        }
        invalidValue(makePath(), kind.typeName, Self.quote(value))
        return nil
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, as protobuf's Timestamp accepts.
    static func isRFC3339(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && range.allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
        }
        guard bytes.count >= 20, digits(0..<4), bytes[4] == 0x2D, digits(5..<7), bytes[7] == 0x2D, digits(8..<10),
            bytes[10] == 0x54 || bytes[10] == 0x74, digits(11..<13), bytes[13] == 0x3A, digits(14..<16),
            bytes[16] == 0x3A, digits(17..<19)
        else { return false }
        var index = 19
        if bytes[index] == 0x2E {
            let start = index + 1
            index = start
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > start, index - start <= 9 else { return false }
        }
        guard index < bytes.count else { return false }
        if bytes[index] == 0x5A || bytes[index] == 0x7A { return index + 1 == bytes.count }
        guard bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count,
            digits(index + 1..<index + 3), bytes[index + 3] == 0x3A, digits(index + 4..<index + 6)
        else { return false }
        return true
    }
}
