import Locking
import Synchronization

/// What the routes may keep on one connection from request to request: the application's own
/// per-connection object (the APNs provider-token state, for one) and the HTTP/2 stream limit
/// it wants the client told about.
public final class ConnectionSession: Sendable {
    /// The host name the client asked for in TLS (SNI), if it sent one.
    public let serverName: String?
    /// The number of the event loop the connection lives on (0 up to `threads` - 1), so that
    /// what is counted per request can be counted in that loop's own storage.
    public let loop: Int
    private let attachment = Locked<(AnyObject & Sendable)?>(nil)
    /// A new SETTINGS_MAX_CONCURRENT_STREAMS to send, or 0: an atomic, so that the HTTP/2
    /// handler's look after each request costs a load, not a lock.
    private let requestedStreamLimit = Atomic<UInt32>(0)

    /// Makes the session of a new connection on event loop number `loop`.
    public init(serverName: String?, loop: Int = 0) {
        self.serverName = serverName
        self.loop = loop
    }

    /// The application's object for this connection, of type `Attachment`, made by `make` on
    /// first use. One application runs per server, so there is one attachment type.
    public func attachment<Attachment: AnyObject & Sendable>(
        _ type: Attachment.Type, orMake make: () -> Attachment
    ) -> Attachment {
        attachment.withLock { stored in
            if let existing = stored as? Attachment { return existing }
            let made = make()
            stored = made
            return made
        }
    }

    /// Asks for SETTINGS_MAX_CONCURRENT_STREAMS to become `limit` on an HTTP/2 connection; the
    /// SETTINGS frame goes out after the current request's answer. Nothing happens over HTTP/1.1.
    public func limitConcurrentStreams(to limit: UInt32) {
        requestedStreamLimit.store(max(limit, 1), ordering: .relaxed)
    }

    /// The limit asked for since the last call, if any.
    func takeRequestedStreamLimit() -> UInt32? {
        guard requestedStreamLimit.load(ordering: .relaxed) != 0 else { return nil }
        let limit = requestedStreamLimit.exchange(0, ordering: .relaxed)
        return limit == 0 ? nil : limit
    }
}
