/// Whether a send to a target would be accepted, without sending (for `validate_only`).
public enum TargetStatus: Sendable, Equatable {
    /// A send would reach the device(s) (in lenient mode, possibly by registering one).
    case deliverable
    /// A send would reach no device, for this reason.
    case unreachable(UnreachableTarget)
}
