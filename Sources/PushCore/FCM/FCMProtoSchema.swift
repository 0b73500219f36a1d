/// How one proto field is written in proto3 JSON; enough of protobuf's type system to
/// validate an FCM request the way Google's JSON front end does.
indirect enum FCMProtoKind: Sendable {
    case string
    case bool
    case int32
    case float
    /// `google.protobuf.Duration`: `"3.5s"`.
    case duration
    /// `google.protobuf.Timestamp`: RFC 3339.
    case timestamp
    case enumeration(FCMProtoEnum)
    /// `map<string, string>`; `entryType` names the synthetic entry message, e.g.
    /// `google.firebase.fcm.v1.Message.DataEntry`.
    case stringMap(entryType: String)
    case message(FCMProtoMessage)
    /// `google.protobuf.Struct`: any JSON object, kept as given.
    case structObject
    case repeated(FCMProtoKind)

    /// What Google prints in parentheses in `Invalid value at '...' (TYPE), value`.
    var typeName: String {
        switch self {
        case .string: "TYPE_STRING"
        case .bool: "TYPE_BOOL"
        case .int32: "TYPE_INT32"
        case .float: "TYPE_FLOAT"
        case .duration: "type.googleapis.com/google.protobuf.Duration"
        case .timestamp: "type.googleapis.com/google.protobuf.Timestamp"
        case .enumeration(let type): "type.googleapis.com/" + type.name
        case .stringMap(let entryType): "type.googleapis.com/" + entryType
        case .message(let type): "type.googleapis.com/" + type.name
        case .structObject: "type.googleapis.com/google.protobuf.Struct"
        case .repeated(let element): element.typeName
        }
    }
}

/// A proto enum: its full name and its values by number.
struct FCMProtoEnum: Sendable {
    let name: String
    let values: [(name: String, number: Int)]
}

/// One field of a proto message. A class: the mapper reads fields for every request, and a
/// reference is one retain where a struct copy is four.
final class FCMProtoField: Sendable {
    /// The proto (snake_case) name; error paths and the canonical JSON use it.
    let name: String
    /// The proto3 JSON (lowerCamelCase) name, also accepted.
    let jsonName: String
    let kind: FCMProtoKind
    /// The oneof the field belongs to, if any.
    let oneof: String?

    init(_ name: String, _ kind: FCMProtoKind, oneof: String? = nil) {
        self.name = name
        self.kind = kind
        self.oneof = oneof
        var camel = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else {
                camel += upperNext ? character.uppercased() : String(character)
                upperNext = false
            }
        }
        self.jsonName = camel
    }
}

/// A proto message: its full name and fields.
final class FCMProtoMessage: Sendable {
    let name: String
    let fields: [FCMProtoField]

    init(name: String, fields: [FCMProtoField]) {
        precondition(fields.count <= 64, "the JSON mapper tracks fields in a 64-bit set")
        self.name = name
        self.fields = fields
    }

    /// The position in `fields` of the field a JSON key names, by proto name or JSON name.
    func fieldIndex(forKey key: String) -> Int? {
        fields.firstIndex { $0.name == key || $0.jsonName == key }
    }
}
