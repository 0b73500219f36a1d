/// What a response asks of the connection that carries it, besides or instead of its answer
/// (the emulator's transport faults, docs/faults.md). Set as `HTTPResponse.connectionAction`.
public enum ConnectionAction: Sendable, Equatable {
    /// Abort the connection at once: the peer sees a TCP reset (RST), on HTTP/1.1 and HTTP/2,
    /// TLS or not. The response is not sent, nor anything still queued on the connection.
    case reset
    /// Send the response, then close the connection gracefully. HTTP/2: a GOAWAY (NO_ERROR) once
    /// the response's stream has ended, its last-stream-id that stream (the request was
    /// processed), or a later one whose request was taken already, carrying `debugData`; the
    /// streams up to it are answered first.
    /// HTTP/1.1: the response goes out with `connection: close`, then the connection closes.
    case goAwayAfterAnswer(debugData: [UInt8])
    /// Send no response and close the connection gracefully. HTTP/2: a GOAWAY (NO_ERROR) at once,
    /// its last-stream-id below the response's stream (the request was not processed, so a
    /// client may retry it, RFC 9113 §6.8), carrying `debugData`; if a later stream is being
    /// answered already, the last-stream-id is that one and the response's stream is refused
    /// with RST_STREAM REFUSED_STREAM instead. HTTP/1.1: a close (FIN) without an answer, after
    /// the answers queued before it.
    case goAwayUnanswered(debugData: [UInt8])
}
