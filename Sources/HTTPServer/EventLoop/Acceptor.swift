#if canImport(Glibc)
import Glibc
#endif
import Locking

/// Accepts connections for all of a server's listeners, and deals with `accept` failing.
///
/// At the descriptor limit `accept` fails and leaves the connection in the backlog, where it
/// would keep its level-triggered listener readable, and the loop awake, forever. So the acceptor
/// keeps one reserve descriptor: at the limit it gives it up, accepts the waiting connection,
/// closes it (the client sees a closed connection rather than a hang) and takes the reserve back.
/// Calls are made one at a time across loops, so that the descriptor the reserve frees for one
/// listener cannot go to another listener's `accept` meanwhile. docs/server.md, "Limits and
/// errors", says what clients see.
final class Acceptor: Sendable {
    /// What one `accept` call came to.
    enum Outcome {
        /// A new connection.
        case accepted(Int32)
        /// Nobody is waiting.
        case noneWaiting
        /// One waiting connection was closed unanswered (the descriptor limit), or was gone before
        /// it could be accepted: the next call may do better.
        case turnedAway
        /// Accepting cannot go on for now: the listener should wait before trying again.
        case failed
    }

    private let reserve = Locked(ReserveDescriptor())
    private let failureLog: AcceptFailureLog

    init(failureLog: AcceptFailureLog = AcceptFailureLog()) {
        self.failureLog = failureLog
    }

    /// Accepts one connection waiting on `listener`.
    func accept(from listener: Int32) -> Outcome {
        let (outcome, error) = reserve.withLock { reserve in Self.accept(from: listener, reserve: &reserve) }
        switch (outcome, error) {
        case (.accepted, _): failureLog.accepted()
        case (.turnedAway, let error?): failureLog.failed(error, turnedAway: true)
        case (.failed, let error?): failureLog.failed(error, turnedAway: false)
        default: break
        }
        return outcome
    }

    /// Takes the reserve back if a failure left it given up (called before a paused listener retries).
    func restoreReserve() {
        reserve.withLock { reserve in _ = reserve.hold() }
    }

    /// `accept` under the lock: the outcome, and the failure to log if any.
    private static func accept(from listener: Int32, reserve: inout ReserveDescriptor) -> (Outcome, SystemError?) {
        do {
            switch try Socket.accept(listener) {
            case .done(let client): return (.accepted(client), nil)
            case .wouldBlock: return (.noneWaiting, nil)
            }
        } catch {
            switch error.errno {
            case ECONNABORTED, EPROTO, EPERM:
                // That one connection is gone (reset while waiting, or refused by a firewall rule).
                return (.turnedAway, nil)
            case EMFILE, ENFILE:
                return (turnAwayOne(from: listener, with: &reserve), error)
            default:
                return (.failed, error)
            }
        }
    }

    /// At the descriptor limit: uses the reserve to take the first waiting connection off the
    /// backlog and close it.
    private static func turnAwayOne(from listener: Int32, with reserve: inout ReserveDescriptor) -> Outcome {
        guard reserve.isHeld else { return .failed }
        reserve.release()
        let outcome: Outcome
        switch try? Socket.accept(listener) {
        case .done(let client)?:
            Socket.close(client)
            outcome = .turnedAway
        case .wouldBlock?:
            // `accept` takes a descriptor before it looks at the backlog: at the limit it fails
            // even when nobody waits.
            outcome = .noneWaiting
        case nil:
            // Something outside the listeners took the freed descriptor, or another failure.
            outcome = .failed
        }
        return reserve.hold() ? outcome : .failed
    }
}
