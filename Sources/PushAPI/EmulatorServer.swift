import HTTPServer

/// The emulator running: its routes (`EmulatorApp`) served by an `HTTPServer`, and the thread that
/// releases delayed messages as the clock runs. `push-emulator serve` runs one until a signal; the
/// Swift test library (`PushEmulatorTesting`) one per test.
public final class EmulatorServer: Sendable {
    /// The routes and the state behind them.
    public let app: EmulatorApp
    private let server: HTTPServer
    private let releases: RepeatingTask

    /// Starts serving `app` as `configuration` says (its `errorResponse` is the app's).
    public init(app: EmulatorApp, configuration: ServerConfiguration) throws {
        var configuration = configuration
        configuration.errorResponse = app.errorResponse
        self.app = app
        server = try HTTPServer(configuration: configuration) { request in app.handle(request) }
        // Delayed collapsible messages are due as the clock runs, with no request to hand them over.
        let core = app.core
        releases = RepeatingTask.start(everyMilliseconds: 1_000) { core.releaseHeldDeliveries() }
    }

    /// The port it listens on (the kernel's choice when the configuration said 0).
    public var port: UInt16 { server.port }

    /// Stops the release thread, the server (its connections closed gracefully) and the webhooks.
    public func stop() {
        releases.stop()
        server.shutdown()
        app.stop()
    }
}
