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
    public init?(lowercaseName name: Span<UInt8>) {
        let header: APNsHeaderName
        switch name.count {
        case 7: header = .id
        case 10: header = .topic
        // The two names of 13 bytes differ in their second.
        case 13: header = name[1] == UInt8(ascii: "u") ? .authorization : .priority
        case 14: header = .pushType
        case 15: header = .expiration
        case 16: header = .collapseID
        default: return nil
        }
        let text = header.rawValue
        let expected = text.utf8.span
        for index in name.indices where name[index] != expected[index] { return nil }
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
