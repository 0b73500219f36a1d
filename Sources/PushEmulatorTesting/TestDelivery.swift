import ByteCoding

/// One message as it reached one device (an entry of a message's `deliveries` in the message log,
/// docs/fcm.md).
public struct TestDelivery: Sendable {
    /// Its id, `d-<number>`.
    public let id: String
    /// The message's name, `projects/<p>/messages/<id>`.
    public let messageName: String
    /// `pending` (queued for a device not connected), `delivered`, `collapsed`, `expired`,
    /// `deleted` or `dropped`.
    public let state: String
    /// What an Apple device's app receives: the APNs payload's JSON (`{"aps":{...},...}`); nil for
    /// an Android or web device.
    public let applePayloadJSON: String?
    /// The delivery's whole JSON as the message log shows it (headers, payload or extras,
    /// presentation, history).
    public let json: String

    init(_ delivery: JSONValue, messageName: String) {
        id = delivery["id"]?.stringValue ?? ""
        self.messageName = messageName
        state = delivery["state"]?.stringValue ?? ""
        applePayloadJSON = delivery["payload"].map { JSONSerializer.serializeToString($0) }
        json = JSONSerializer.serializeToString(delivery)
    }
}
