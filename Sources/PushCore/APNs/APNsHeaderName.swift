import ByteCoding

/// The request headers the provider API reads (docs/apns.md, "What is checked"), by their
/// lower-case names.
public enum APNsHeaderName: String, Sendable {
    case authorization
    case id = "apns-id"
    case topic = "apns-topic"
    case priority = "apns-priority"
    case pushType = "apns-push-type"
    case expiration = "apns-expiration"
    case collapseID = "apns-collapse-id"

    /// The header a lower-case name's bytes name, or nil. The length is looked at first, so that a
    /// name is compared with one of the names at most: every header of every push passes here.
    public init?(lowercaseName name: UnsafeRawBufferPointer) {
        // The names again as static text, next to their cases (the tests check each against its
        // case): a `String` raw value's bytes are reached through more steps.
        let (header, text): (APNsHeaderName, StaticString)
        switch name.count {
        case 7: (header, text) = (.id, "apns-id")
        case 10: (header, text) = (.topic, "apns-topic")
        // The two names of 13 bytes differ in their second.
        case 13: (header, text) = name[1] == UInt8(ascii: "u") ? (.authorization, "authorization") : (.priority, "apns-priority")
        case 14: (header, text) = (.pushType, "apns-push-type")
        case 15: (header, text) = (.expiration, "apns-expiration")
        case 16: (header, text) = (.collapseID, "apns-collapse-id")
        default: return nil
        }
        guard text.withUTF8Bytes({ WordBytes.equal($0, name) }) else { return nil }
        self = header
    }

    /// The header's bit in a set of headers seen.
    var bit: UInt8 {
        switch self {
        case .authorization: 1
        case .id: 2
        case .topic: 4
        case .priority: 8
        case .pushType: 16
        case .expiration: 32
        case .collapseID: 64
        }
    }
}
