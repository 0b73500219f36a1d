import ByteCoding
import HTTPServer
import PushCore

/// How a route answers a fired fault: the injected error in the API's own format, after
/// the delay if there is one; a pure delay performs the send after it; a transport fault asks
/// the connection for a reset or a GOAWAY (docs/faults.md).
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

    /// What a fired fault answers once its delay is over: its transport fault (after `error`, if
    /// there is one), else `error`, else what `perform` answers (a pure delay). `goAwayReason`
    /// becomes a GOAWAY's debug data `{"reason":"..."}` (APNs sends, as Apple's); nil: none
    /// (Google's endpoints).
    static func answer(
        _ fired: FiredFault, error: HTTPResponse?, goAwayReason: String?, perform: () -> HTTPResponse
    ) -> HTTPResponse {
        if let connection = fired.connection { return transport(connection, error: error, goAwayReason: goAwayReason) }
        return error ?? perform()
    }

    /// A transport fault's answer: a reset (no answer), or a GOAWAY after `error` when there is
    /// one and instead of any answer when not.
    private static func transport(_ connection: ConnectionFault, error: HTTPResponse?, goAwayReason: String?) -> HTTPResponse {
        switch connection {
        case .reset:
            return .unanswered(.reset)
        case .goaway:
            let debugData = goAwayReason.map { JSONSerializer.serialize(["reason": .string($0)]) } ?? []
            guard var error else { return .unanswered(.goAwayUnanswered(debugData: debugData)) }
            error.connectionAction = .goAwayAfterAnswer(debugData: debugData)
            return error
        }
    }
}
