/// Told, once, whether bytes written to a streaming response were handed to the socket (`true`)
/// or dropped because the stream or the connection closed first (`false`). Runs on the
/// connection's loop.
public typealias SentCallback = @Sendable (_ sent: Bool) -> Void

/// Callbacks waiting for a byte count to be reached, in order: the connection's bytes written to
/// the socket, or an HTTP/2 stream's bytes framed for the connection.
struct SentCallbacks {
    private var waiting: [(end: UInt64, callback: SentCallback)] = []
    private var head = 0

    var isEmpty: Bool { head == waiting.count }

    /// Waits for the count to reach `end`.
    mutating func append(end: UInt64, _ callback: @escaping SentCallback) {
        waiting.append((end, callback))
    }

    /// Removes and returns the callbacks whose end the count has reached, oldest first.
    mutating func takeReached(_ count: UInt64) -> [SentCallback] {
        var reached: [SentCallback] = []
        while head < waiting.count && waiting[head].end <= count {
            reached.append(waiting[head].callback)
            head += 1
        }
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
        return reached
    }

    /// Removes and returns every callback.
    mutating func takeAll() -> [SentCallback] {
        defer {
            waiting = []
            head = 0
        }
        return waiting[head...].map(\.callback)
    }
}
