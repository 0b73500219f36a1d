import ByteCoding

/// A project as `GET /emulator/v1/projects` lists it: what the inbox shows before a project is
/// opened. A project exists from its first registration, send, subscription or fault until it
/// is reset.
public struct ProjectSummary: Sendable, Equatable {
    /// The project's id.
    public let projectID: String
    /// Registered devices.
    public let deviceCount: Int
    /// Devices with a stream open.
    public let connectedDeviceCount: Int
    /// Deliveries still queued or on their way.
    public let pendingDeliveryCount: Int
    /// Entries in the message log.
    public let messageCount: Int
    /// Faults stored for its sends.
    public let faultCount: Int
    /// Order of creation, for paging.
    let sequence: Int

    /// `{"projectId", "deviceCount", "connectedDeviceCount", "pendingDeliveryCount", "messageCount", "faultCount"}`.
    public var json: JSONValue {
        func number(_ value: Int) -> JSONValue { .number(String(value)) }
        return .object(JSONObject([
            JSONObject.Member(key: "projectId", value: .string(projectID)),
            JSONObject.Member(key: "deviceCount", value: number(deviceCount)),
            JSONObject.Member(key: "connectedDeviceCount", value: number(connectedDeviceCount)),
            JSONObject.Member(key: "pendingDeliveryCount", value: number(pendingDeliveryCount)),
            JSONObject.Member(key: "messageCount", value: number(messageCount)),
            JSONObject.Member(key: "faultCount", value: number(faultCount)),
        ]))
    }
}
