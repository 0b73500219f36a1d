/// The HTTP server: `configuration.threads` event loops, each with its own `SO_REUSEPORT` listener
/// on the same port, serving HTTP/1.1, h2c and HTTP/2 over TLS (chosen per connection by sniffing),
/// all answered by one handler.
public final class HTTPServer: Sendable {
    /// The port actually listened on (the kernel's choice when the configuration said 0).
    public let port: UInt16
    private let loops: [EventLoop]
    private let graceSeconds: Double

    /// Binds the listeners and starts the loops.
    public init(configuration: ServerConfiguration, handler: @escaping HTTPHandler) throws {
        let port = try Socket.claimPort(host: configuration.host, port: configuration.port)
        var loops: [EventLoop] = []
        var listeners: [(EventLoop, Int32)] = []
        do {
            for _ in 0..<max(1, configuration.threads) {
                let fd = try Socket.listen(host: configuration.host, port: port)
                let loop = try EventLoop()
                loops.append(loop)
                listeners.append((loop, fd))
            }
        } catch {
            for (_, fd) in listeners { Socket.close(fd) }
            throw error
        }
        let acceptor = Acceptor()
        for (index, (loop, fd)) in listeners.enumerated() {
            let context = LoopContext(loop: loop, index: index, configuration: configuration, handler: handler)
            try loop.register(Listener(fd: fd, context: context, acceptor: acceptor))
            if let accessLog = context.accessLog { loop.addAfterBatch { accessLog.flush() } }
        }
        self.port = port
        self.loops = loops
        self.graceSeconds = configuration.shutdownGraceSeconds
        for (index, loop) in loops.enumerated() { loop.start(name: "loop-\(index)") }
    }

    /// Stops accepting, sends GOAWAY on HTTP/2, lets in-flight requests finish (force-closing what
    /// is left after the grace period), and returns when every loop has stopped.
    public func shutdown() {
        for loop in loops { loop.shutdownGracefully(graceSeconds: graceSeconds) }
        for loop in loops { loop.join() }
    }
}
