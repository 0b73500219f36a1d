import HTTPServer
import PushCore

/// The emulator's HTTP face: builds the router that maps every endpoint to PushCore.
public struct EmulatorApp: Sendable {
    /// The emulator's settings that the routes need.
    public struct Settings: Sendable {
        /// The local CA's certificate (PEM), served at `/emulator/v1/ca.pem`; nil when TLS uses a
        /// user-supplied certificate.
        public var caPEM: String?

        /// Makes settings.
        public init(caPEM: String? = nil) {
            self.caPEM = caPEM
        }
    }

    /// The routes.
    public let router: Router

    /// Builds every route.
    public init(settings: Settings) {
        var router = Router()
        router.add("GET", "/healthz") { _ in .json(200, #"{"status":"ok"}"#) }
        let caPEM = settings.caPEM
        router.add("GET", "/emulator/v1/ca.pem") { _ in
            guard let caPEM else { return .text(404, "No local CA: the emulator was started with --tls-cert/--tls-key.\n") }
            return .text(200, caPEM, contentType: "application/x-pem-file")
        }
        router.add("GET", "/emulator/v1/debug/tick") { request in
            // A stream of numbered events, for exercising streaming responses by hand and in tests.
            let count = Int(request.queryItem("count") ?? "") ?? 10
            let intervalMs = Int(request.queryItem("intervalMs") ?? "") ?? 100
            return HTTPResponse(status: 200, headers: ["content-type": "text/event-stream", "cache-control": "no-cache"], body: .stream { stream in
                Ticker.run(stream: stream, count: count, intervalMs: intervalMs)
            })
        }
        self.router = router
    }

    /// Answers a request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        router.handle(request)
    }
}
