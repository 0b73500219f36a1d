/// Why a request of `HTTPClient` got no answer: the connection, TLS, a timeout, or an answer that
/// is not HTTP/1.1.
public struct HTTPClientError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, in words (webhook logs and test failures show it).
    public let description: String

    /// An error that says `description`.
    public init(_ description: String) {
        self.description = description
    }
}
