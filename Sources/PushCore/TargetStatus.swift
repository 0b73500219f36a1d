/// Whether a send to a target would be accepted, without sending (for `validate_only`).
public enum TargetStatus: Sendable, Equatable {
    /// A send would reach the device(s) (in lenient mode, possibly by registering one).
    case deliverable
    /// The device was uninstalled at this time.
    case unregistered(since: Timestamp)
    /// The token is malformed, or unknown in strict mode.
    case invalidRegistration
}
