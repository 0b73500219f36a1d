/// What a stream was given that the core must settle once the stream knows whether it was sent:
/// a delivery stays `pending` until then, and a `messagesDeleted` signal stays owed.
enum HandOver: Sendable, Equatable {
    case delivery(number: Int)
    case deletion(reason: DeletionReason, count: Int)
}

/// Tells the core whether one event given to a stream left for the device: call `finish` once,
/// with true when its bytes were handed to the socket and false when the stream closed first.
/// Only then is a delivery `delivered`; one that was not sent goes back to the device's pending
/// queue, in order, under the queue rules.
public struct StreamReceipt: Sendable {
    let handOver: HandOver
    let report: @Sendable (HandOver, Bool) -> Void

    /// Settles the event: `sent` says whether its bytes reached the socket.
    public func finish(sent: Bool) {
        report(handOver, sent)
    }
}
