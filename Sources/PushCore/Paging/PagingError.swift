/// Why a list call's paging parameters were refused (400 INVALID_ARGUMENT).
public enum PagingError: Error, Sendable, Equatable {
    /// `pageSize` below zero.
    case negativePageSize
    /// A `pageToken` this emulator did not issue.
    case invalidPageToken

    /// The message for the error body.
    public var message: String {
        switch self {
        case .negativePageSize: "pageSize must not be negative"
        case .invalidPageToken: "pageToken is not valid; pass the nextPageToken of the previous page"
        }
    }
}
