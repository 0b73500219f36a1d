/// What a transport fault does to the connection its attempt came on (docs/faults.md).
public enum ConnectionFault: String, Sendable, Equatable, CaseIterable {
    /// Abort the connection at once (TCP reset): no answer, the send not performed.
    case reset
    /// End the connection: HTTP/2 GOAWAY, HTTP/1.1 a close; after the fault's error when it has
    /// one, else without answering (the send not performed).
    case goaway

    /// Reads the `connection` field.
    init(name: String) throws(GoogleError) {
        guard let fault = Self(rawValue: name) else {
            throw FaultSpec.invalid("connection must be reset or goaway; got \"\(name)\".", field: "connection")
        }
        self = fault
    }
}
