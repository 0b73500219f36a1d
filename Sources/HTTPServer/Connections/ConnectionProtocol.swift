/// The HTTP/1.1 or HTTP/2 side of a connection, once the protocol is known.
protocol ConnectionProtocol: AnyObject {
    /// Bytes arrived from the peer.
    func receive(_ bytes: UnsafeRawBufferPointer)
    /// The output buffer has room: append more if there is any (HTTP/2 frames; the answers to
    /// pipelined HTTP/1.1 requests set aside while the output was full). Called from within
    /// `Connection.flush`, which then sends what was added.
    func fillOutput()
    /// True while the protocol still has output to produce.
    var wantsWrite: Bool { get }
    /// Answers what has taken too long: a header block unfinished after `headerLimit`
    /// nanoseconds or a request body unfinished `bodyLimit` after its request began (however
    /// slowly bytes trickle in). Returns true when it acted.
    func expireSlowRequests(now: UInt64, headerLimit: UInt64, bodyLimit: UInt64) -> Bool
    /// True while a streaming response is open (such connections are never idle).
    var isStreaming: Bool { get }
    /// The peer closed its side.
    func peerClosed()
    /// Stop taking new requests; finish the ones in flight.
    func beginShutdown()
    /// The connection is gone: release streams and tell them the client left.
    func connectionClosed()
    /// The idle timeout expired.
    func timedOut()
}
