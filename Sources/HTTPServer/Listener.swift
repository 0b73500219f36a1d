/// A loop's listening socket: accepts connections and registers them on the same loop.
final class Listener: LoopHandler {
    let fd: Int32
    let context: LoopContext
    private var closed = false

    init(fd: Int32, context: LoopContext) {
        self.fd = fd
        self.context = context
    }

    func handleEvent(readable: Bool, writable: Bool, hangup: Bool) {
        // A bounded batch per wake-up keeps one busy listener from starving its connections.
        for _ in 0..<64 where !closed {
            let accepted: IOResult<Int32>
            do {
                accepted = try Socket.accept(fd)
            } catch {
                // EMFILE and friends: leave the connection in the backlog and try again on the next wake-up.
                return
            }
            guard case .done(let client) = accepted else { return }
            let connection = Connection(fd: client, context: context)
            do {
                try context.loop.register(connection)
            } catch {
                Socket.close(client)
                continue
            }
            connection.readAvailable()
        }
    }

    func checkDeadline(now: UInt64) {}

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
