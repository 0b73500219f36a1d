/// The protocol a request arrived over.
public enum HTTPVersion: String, Sendable {
    /// HTTP/1.0.
    case http1_0 = "HTTP/1.0"
    /// HTTP/1.1.
    case http1_1 = "HTTP/1.1"
    /// HTTP/2 (cleartext or TLS).
    case http2 = "HTTP/2"
}
