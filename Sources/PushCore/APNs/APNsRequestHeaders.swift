import ByteCoding

/// A provider API request's headers as they are read, one by one: the `apns-*` ones in order
/// (what the device receives), the values of those Apple documents, and whether one came twice
/// (DuplicateHeaders). The caller names each documented header it adds, having told them apart
/// by their bytes, so that nothing here compares names again.
public struct APNsRequestHeaders: Sendable {
    /// The `apns-*` headers, names lowercase, in the request's order.
    public private(set) var fields: [HeaderField] = []
    /// Whether a documented header, `authorization` among them, or an `apns-*` one came twice.
    public private(set) var hasDuplicate = false
    /// The values of the documented `apns-*` headers, each the first given.
    public private(set) var id, topic, priority, pushType, expiration, collapseID: String?
    /// The documented headers seen, a bit each.
    private var seen: UInt8 = 0
    /// The undocumented `apns-*` names seen (rare: an empty set allocates nothing), so that a
    /// repeat is found without comparing each name with every one before it.
    private var otherNames: Set<String> = []

    private static let apnsPrefix = Array("apns-".utf8)

    /// No headers yet; `expectedCount` is room for that many `apns-*` fields.
    public init(expectedCount: Int = 0) {
        fields.reserveCapacity(expectedCount)
    }

    /// The fields in order (any others, `authorization` among them, may be among them: only
    /// repeats of these count).
    public init(_ fields: [HeaderField]) {
        self.init(expectedCount: fields.count)
        for field in fields { add(APNsHeaderName(lowercaseName: field.name.utf8.span), field) }
    }

    /// Adds the next field; `header` is the documented header its name names, or nil for any other
    /// (only `apns-*` ones are kept).
    public mutating func add(_ header: APNsHeaderName?, _ field: HeaderField) {
        guard let header else {
            guard field.name.utf8.starts(with: Self.apnsPrefix) else { return }
            if !otherNames.insert(field.name).inserted { hasDuplicate = true }
            fields.append(field)
            return
        }
        guard seen & header.bit == 0 else {
            hasDuplicate = true
            return
        }
        seen |= header.bit
        switch header {
        case .authorization: return
        case .id: id = field.value
        case .topic: topic = field.value
        case .priority: priority = field.value
        case .pushType: pushType = field.value
        case .expiration: expiration = field.value
        case .collapseID: collapseID = field.value
        }
        fields.append(field)
    }
}
