/// Everything the HTTP server needs to know, with the emulator's defaults.
public struct ServerConfiguration: Sendable {
    /// Address to listen on.
    public var host = "127.0.0.1"
    /// Port to listen on; 0 lets the kernel choose (see `HTTPServer.port`).
    public var port: UInt16 = 9499
    /// Number of event loops (threads), each with its own listener on the port.
    public var threads = 2
    /// Largest request body accepted; larger ones get 413.
    public var maxBodyBytes = 1_048_576
    /// Largest header block accepted; larger ones get 431.
    public var maxHeaderBytes = 65_536
    /// SETTINGS_MAX_CONCURRENT_STREAMS advertised on HTTP/2 connections.
    public var maxConcurrentStreams: UInt32 = 1000
    /// The SETTINGS_MAX_CONCURRENT_STREAMS a new HTTP/2 connection starts with, given the host
    /// name the client asked for in TLS (nil: no TLS or no SNI); nil keeps `maxConcurrentStreams`.
    /// Routes may change it later through `ConnectionSession.limitConcurrentStreams(to:)`.
    public var initialConcurrentStreams: (@Sendable (_ serverName: String?) -> UInt32?)? = nil
    /// Which `CONNECT host:port` requests open a tunnel (HTTPS-proxy interception): true
    /// answers `200 Connection established` and serves the tunnel as a new TLS connection of this
    /// server (its certificate must name the host); false answers 403. nil: CONNECT is refused
    /// with 405, as for any method no route takes.
    public var interceptsTunnel: (@Sendable (_ host: String, _ port: Int) -> Bool)? = nil
    /// Seconds a connection may sit with nothing in flight before it is closed.
    public var idleTimeoutSeconds: Double = 120
    /// Seconds a client has to complete the TLS handshake and each request's header block.
    public var headerTimeoutSeconds: Double = 10
    /// Seconds a client has to send a request's body, from the start of the request.
    public var bodyTimeoutSeconds: Double = 30
    /// Seconds in-flight requests get to finish on shutdown.
    public var shutdownGraceSeconds: Double = 8
    /// TLS, when set: connections that start with a TLS handshake are served over it.
    public var tls: TLSContext?
    /// How each request is logged; nil logs nothing.
    public var accessLog: AccessLogFormat? = .text
    /// Where access-log lines go (a descriptor; 2 is standard error).
    public var accessLogFD: Int32 = 2
    /// Builds the response for protocol-level errors (malformed request, body too large, ...):
    /// status, a message for a person, and the request's path when it was read (an HTTP/2
    /// stream's; nil for HTTP/1.1, whose errors come before or instead of a request).
    public var errorResponse: @Sendable (_ status: Int, _ message: String, _ path: String?) -> HTTPResponse = { status, message, _ in
        .text(status, message + "\n")
    }

    /// The defaults.
    public init() {}
}

/// The format of access-log lines.
public enum AccessLogFormat: String, Sendable, CaseIterable {
    /// `127.0.0.1:50412 "GET /healthz HTTP/2" 200 15 0.12ms`.
    case text
    /// One JSON object per line.
    case json
}
