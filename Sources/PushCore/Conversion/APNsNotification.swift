import ByteCoding

/// What an Apple device receives: the APNs request headers and the JSON payload.
///
/// Both the FCM conversion and the APNs provider API produce one of these; the queue stores it.
/// The payload is kept serialized, as it goes over the wire: it is measured against Apple's
/// limit in that form anyway, and a queue of many takes a buffer each instead of a JSON tree.
public struct APNsNotification: Sendable, Equatable {
    /// The request headers, in order.
    public var headers: [HeaderField] {
        get {
            guard let generatedID else { return fields }
            var all = fields
            all.insert(HeaderField(lowercaseName: "apns-id", generatedID.uuid.text), at: Int(generatedID.position))
            return all
        }
        set {
            fields = newValue
            generatedID = nil
        }
    }
    /// The serialized payload.
    public private(set) var payloadBytes: [UInt8]
    /// The headers but a generated `apns-id`. Every FCM send without an `apns-id` draws one, and
    /// most queued notifications are never read: it is kept as its bits, not as a header of 36
    /// characters, and put in at its place when `headers` is read. The emulator's own lookups
    /// (`pushType` and the like) read these: they look for other names, which it cannot shadow.
    private(set) var fields: [HeaderField]
    private var generatedID: GeneratedID?

    /// A generated `apns-id` and its position among the headers.
    private struct GeneratedID: Sendable, Equatable {
        var uuid: RandomUUID
        /// 32 bits, not 8: a provider API push puts the id after all of its `apns-*` headers, and a
        /// request may carry hundreds (a `UInt8` trapped at the 256th). 32 bits leave a queued
        /// notification's size in memory as it was.
        var position: UInt32
    }

    /// Makes a notification, serializing `payload`.
    public init(headers: [HeaderField], payload: JSONObject) {
        self.init(headers: headers, payloadBytes: JSONSerializer.serialize(.object(payload)))
    }

    /// Makes a notification from a payload already serialized.
    init(headers: [HeaderField], payloadBytes: [UInt8]) {
        self.fields = headers
        self.payloadBytes = Self.compacted(payloadBytes)
    }

    /// Makes a notification whose headers are `fields` with an `apns-id` of `generatedID`'s text
    /// put in at `position`.
    init(fields: [HeaderField], generatedID uuid: RandomUUID, at position: Int, payloadBytes: [UInt8]) {
        self.init(headers: fields, payloadBytes: payloadBytes)
        // Clamped, never above the real position: no array of headers has four billion entries.
        generatedID = GeneratedID(uuid: uuid, position: UInt32(clamping: position))
    }

    /// Equal headers, as read, and payloads: a generated `apns-id` equals the same text given.
    public static func == (lhs: APNsNotification, rhs: APNsNotification) -> Bool {
        lhs.payloadBytes == rhs.payloadBytes && lhs.headers == rhs.headers
    }

    /// `bytes` in a buffer of its own size when the one it has is much larger: queues keep
    /// notifications for long, and the serializer's buffer starts large.
    static func compacted(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.capacity > bytes.count + bytes.count / 4 else { return bytes }
        // A copy made element by element: `Array(bytes)` would share the large buffer.
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            _ = buffer.initialize(from: bytes)
            count = bytes.count
        }
    }

    /// The payload: `aps` first, then custom keys (parsed from `payloadBytes` on each read).
    public var payload: JSONObject {
        get { (try? JSONParser.parse(payloadBytes))?.objectValue ?? JSONObject() }
        set { payloadBytes = JSONSerializer.serialize(.object(newValue)) }
    }

    /// The payload's serialized size in bytes, which Apple's limit applies to.
    public var payloadByteCount: Int { payloadBytes.count }

    /// The `aps` dictionary of `payload`, or an empty one.
    public var aps: JSONObject { Self.aps(of: payload) }

    /// The `aps` dictionary of a payload, or an empty one.
    static func aps(of payload: JSONObject) -> JSONObject {
        if case .object(let aps)? = payload["aps"] { return aps }
        return JSONObject()
    }

    /// `apns-push-type`, if given.
    public var pushType: String? { fields.value(lowercaseName: "apns-push-type") }

    /// `apns-collapse-id`, if given.
    public var collapseID: String? { fields.value(lowercaseName: "apns-collapse-id") }

    /// `apns-topic`, if given.
    public var topic: String? { fields.value(lowercaseName: "apns-topic") }

    /// Whether `aps` asks the system to show or sound something (`alert`, `sound` or `badge`).
    public var isUserVisible: Bool { Self.isUserVisible(aps: aps) }

    static func isUserVisible(aps: JSONObject) -> Bool {
        aps.members.contains { isUserVisibleKey($0.key) }
    }

    /// Whether an `aps` member called `key` makes the notification user-visible.
    static func isUserVisibleKey(_ key: String) -> Bool {
        key == "alert" || key == "sound" || key == "badge"
    }
}
