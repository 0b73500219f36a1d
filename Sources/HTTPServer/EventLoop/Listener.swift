/// A loop's listening socket: accepts connections (through the server's `Acceptor`) and registers
/// them on the same loop. When accepting cannot go on for now, it stops watching the socket until
/// the loop's next timeout sweep, rather than be woken again at once by the same waiting connection.
final class Listener: LoopHandler {
    let fd: Int32
    let context: LoopContext
    private let acceptor: Acceptor
    private var closed = false
    /// Not watched for readiness until the next `checkDeadline`.
    private var paused = false

    init(fd: Int32, context: LoopContext, acceptor: Acceptor) {
        self.fd = fd
        self.context = context
        self.acceptor = acceptor
    }

    func handleEvent(readable: Bool, writable: Bool, hangup: Bool) {
        // A bounded batch per wake-up keeps one busy listener from starving its connections.
        for _ in 0..<64 where !closed && !paused {
            switch acceptor.accept(from: fd) {
            case .accepted(let client):
                let connection = Connection(fd: client, context: context)
                do {
                    try context.loop.register(connection)
                } catch {
                    Socket.close(client)
                    continue
                }
                connection.readAvailable()
            case .turnedAway:
                continue
            case .noneWaiting:
                return
            case .failed:
                paused = true
                context.loop.setInterest(fd, readable: false, writable: false)
                return
            }
        }
    }

    func checkDeadline(now: UInt64) {
        guard paused, !closed else { return }
        paused = false
        acceptor.restoreReserve()
        context.loop.setInterest(fd, readable: true, writable: false)
    }

    func beginShutdown() {
        forceClose()
    }

    func forceClose() {
        guard !closed else { return }
        closed = true
        context.loop.unregister(fd)
        Socket.close(fd)
    }
}
