import HTTPServer

/// How a send route answers a fired fault: the injected error in the API's own format, after
/// the delay if there is one; a pure delay performs the send after it.
enum FaultAnswer {
    /// `answer` built now, or after the fault's delay on the connection's loop (not blocking it).
    static func respond(after delayMilliseconds: Int?, _ answer: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        guard let delayMilliseconds, delayMilliseconds > 0 else { return answer() }
        return .deferred { later in
            later.loop.schedule(afterMilliseconds: delayMilliseconds) {
                // The client may have left meanwhile: then the send is not performed either.
                guard !later.isFinished else { return }
                later.respond(answer())
            }
        }
    }
}
