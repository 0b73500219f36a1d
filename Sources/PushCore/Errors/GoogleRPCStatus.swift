/// The canonical `google.rpc.Code` names Google APIs put in `error.status`, with the HTTP
/// status each maps to (google/rpc/code.proto).
public enum GoogleRPCStatus: String, Sendable, Equatable, CaseIterable {
    /// 400.
    case invalidArgument = "INVALID_ARGUMENT"
    /// 400.
    case failedPrecondition = "FAILED_PRECONDITION"
    /// 400.
    case outOfRange = "OUT_OF_RANGE"
    /// 401.
    case unauthenticated = "UNAUTHENTICATED"
    /// 403.
    case permissionDenied = "PERMISSION_DENIED"
    /// 404.
    case notFound = "NOT_FOUND"
    /// 409.
    case aborted = "ABORTED"
    /// 409.
    case alreadyExists = "ALREADY_EXISTS"
    /// 429.
    case resourceExhausted = "RESOURCE_EXHAUSTED"
    /// 499.
    case cancelled = "CANCELLED"
    /// 500.
    case dataLoss = "DATA_LOSS"
    /// 500.
    case unknown = "UNKNOWN"
    /// 500.
    case `internal` = "INTERNAL"
    /// 501.
    case unimplemented = "UNIMPLEMENTED"
    /// 503.
    case unavailable = "UNAVAILABLE"
    /// 504.
    case deadlineExceeded = "DEADLINE_EXCEEDED"

    /// The HTTP status Google answers with, also the body's `error.code`.
    public var httpStatus: Int {
        switch self {
        case .invalidArgument, .failedPrecondition, .outOfRange: 400
        case .unauthenticated: 401
        case .permissionDenied: 403
        case .notFound: 404
        case .aborted, .alreadyExists: 409
        case .resourceExhausted: 429
        case .cancelled: 499
        case .dataLoss, .unknown, .internal: 500
        case .unimplemented: 501
        case .unavailable: 503
        case .deadlineExceeded: 504
        }
    }
}
