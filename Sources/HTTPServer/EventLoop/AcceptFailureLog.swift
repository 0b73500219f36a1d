#if canImport(Glibc)
import Glibc
#endif
import Locking
import Synchronization

/// Reports on standard error when listeners cannot accept connections (the descriptor limit, most
/// often): one line when such an episode begins and one when it ends, however many connections it
/// turns away. Shared by all of a server's listeners, so that an episode is one episode whichever
/// loops run into it.
final class AcceptFailureLog: Sendable {
    /// How long accepting must go without a failure for an episode to end (5 s unless a test says
    /// otherwise): a server that keeps hovering at the limit writes two lines, not two per
    /// connection that closes.
    private let quietNanoseconds: UInt64

    private struct Episode {
        var turnedAway = 0
        var lastFailure: UInt64 = 0
    }

    private let fd: Int32
    /// Set while an episode runs, so that accepting outside one costs one atomic load.
    private let inEpisode = Atomic<Bool>(false)
    private let episode = Locked<Episode?>(nil)

    /// Writes to `fd` (2, standard error, unless a test says otherwise).
    init(fd: Int32 = 2, quietNanoseconds: UInt64 = 5_000_000_000) {
        self.fd = fd
        self.quietNanoseconds = quietNanoseconds
    }

    /// A listener could not accept because of `error`; `turnedAway` says whether a waiting
    /// connection was closed unanswered because of it.
    func failed(_ error: SystemError, turnedAway: Bool) {
        let now = MonotonicClock.now()
        let began = episode.withLock { episode -> Bool in
            let began = episode == nil
            var current = episode ?? Episode()
            current.lastFailure = now
            if turnedAway { current.turnedAway += 1 }
            episode = current
            inEpisode.store(true, ordering: .releasing)
            return began
        }
        guard began else { return }
        let limit = DescriptorLimit.current.map { " (limit \($0.soft) descriptors)" } ?? ""
        switch error.errno {
        case EMFILE, ENFILE:
            write("push-emulator: descriptor limit reached\(limit): \(error); new connections are closed"
                + " at once until descriptors free up")
        default:
            write("push-emulator: cannot accept connections: \(error); retrying every quarter second")
        }
    }

    /// A listener accepted a connection: ends the episode once failures have stopped for a while.
    func accepted() {
        guard inEpisode.load(ordering: .acquiring) else { return }
        let now = MonotonicClock.now()
        let ended = episode.withLock { episode -> Episode? in
            guard let current = episode, now - min(now, current.lastFailure) >= quietNanoseconds else { return nil }
            episode = nil
            inEpisode.store(false, ordering: .releasing)
            return current
        }
        guard let ended else { return }
        write("push-emulator: accepting connections again (\(ended.turnedAway) closed unanswered meanwhile)")
    }

    private func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else { return }
            offset += written
        }
    }
}
