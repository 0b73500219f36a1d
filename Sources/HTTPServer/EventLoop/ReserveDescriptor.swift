#if canImport(Glibc)
import Glibc
#endif

/// One descriptor held back (open on /dev/null) for the moment the process runs out: given up, it
/// makes room for `accept` to take a waiting connection off the backlog, so that the `Acceptor`
/// can close it at once instead of leaving it there.
struct ReserveDescriptor: ~Copyable {
    private var fd: Int32 = -1

    /// True while the descriptor is held.
    var isHeld: Bool { fd >= 0 }

    /// Opens the reserve now (it may fail at the limit; `hold` tries again later).
    init() {
        hold()
    }

    deinit {
        if fd >= 0 { Socket.close(fd) }
    }

    /// Takes the descriptor back if it is not held; false when even one descriptor is not to be had.
    @discardableResult
    mutating func hold() -> Bool {
        guard fd < 0 else { return true }
        fd = (try? blockingSyscall("open /dev/null") { open("/dev/null", O_RDONLY | O_CLOEXEC) }) ?? -1
        return fd >= 0
    }

    /// Gives the descriptor up, so that the next call that creates one can have it.
    mutating func release() {
        guard fd >= 0 else { return }
        Socket.close(fd)
        fd = -1
    }
}
