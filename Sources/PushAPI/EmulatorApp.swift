import HTTPServer
import PushCore
import Signatures

/// The emulator's HTTP face: builds the router that maps every endpoint to PushCore.
public struct EmulatorApp: Sendable {
    /// The emulator's settings that the routes need.
    public struct Settings: Sendable {
        /// The local CA's certificate (PEM), served at `/emulator/v1/ca.pem`; nil when TLS uses a
        /// user-supplied certificate.
        public var caPEM: String?
        /// How FCM requests are authenticated.
        public var auth: AuthMode = .any
        /// The domain's rules (token mode, offline limit, pending limit, sender id).
        public var core = PushCoreConfiguration()
        /// Seconds between heartbeat comments on device streams.
        public var heartbeatSeconds = 15
        /// How many `:stream` connections one device may have open at once.
        public var maxStreamsPerDevice = 10
        /// The APNs provider API's options.
        public var apns = APNsSettings()
        /// The OAuth token endpoint's options.
        public var oauth = OAuthSettings()
        /// Whether `/emulator/v1/debug/...` is served (`--enable-debug-routes`); off, it is unknown.
        public var debugRoutes = false
        /// The server's event loops (`--threads`): `/metrics` counts each loop's requests apart.
        public var loops = 1
        /// The names the emulator answers to besides `localhost` and its addresses
        /// (`--tls-hostname`): a browser's request to its API under any other name is refused.
        public var hostNames: [String] = []
        /// The users of `--ui-auth-file`; nil: the emulator's own API needs no password.
        public var inboxUsers: HtpasswdUsers?
        /// `--webhook`: URLs that get every project's events (docs/webhooks.md).
        public var webhooks: [HTTPClientURL] = []
        /// The client for `https://` webhooks that bring no CA of their own (`--webhook-ca`); nil:
        /// one that trusts the system's store.
        public var webhookClient: HTTPClient?

        /// Makes settings.
        public init(caPEM: String? = nil) {
            self.caPEM = caPEM
        }
    }

    /// The routes.
    public let router: Router
    /// The domain state behind them.
    public let core: PushEmulatorCore
    private let webhooks: Webhooks

    /// Builds every route over a new emulator state.
    public init(settings: Settings, wallTime: @escaping @Sendable () -> Int64 = WallClock.milliseconds) {
        let core = PushEmulatorCore(configuration: settings.core, wallTime: wallTime)
        let streams = DeviceStreams(limitPerDevice: settings.maxStreamsPerDevice)
        let webhooks = Webhooks(defaultClient: settings.webhookClient ?? HTTPClient(), audience: core.deliveryChanges)
        for url in settings.webhooks {
            // Only the limit on targets could refuse, far above what a command line names.
            _ = try? webhooks.add(url: url, project: nil)
        }
        let events = EventFeed(core: core, webhooks: webhooks)
        var router = Router()
        // Other sites' requests are kept out of the emulator's own API (every route added below
        // under /emulator/), checked only on those routes: docs/server.md.
        let browserGuard = BrowserRequestGuard(hostNames: settings.hostNames)
        router.guardedPrefix = "/emulator/"
        let inboxAuthentication = settings.inboxUsers.map(InboxAuthentication.init)
        router.routeGuard = { request in
            browserGuard.refusal(request) ?? inboxAuthentication?.refusal(request)
        }
        router.notFound = { request in
            if let redirect = InboxRoutes.rootRedirect(request) { return redirect }
            if APNsRoutes.isAPNsPath(request.path) { return APNsRoutes.unmatched(request, methodExists: false) }
            return GoogleErrorResponse.protocolError(status: 404, message: "No such endpoint: \(request.method) \(request.path)")
        }
        // Every `{project}` is checked once here, before any handler: see docs/fcm.md.
        let invalidProject = GoogleErrorResponse.make(ProjectID.invalidError)
        router.checkParameters = { parameters in
            guard let project = parameters["project"], !ProjectID.isValid(project) else { return nil }
            return invalidProject
        }
        router.methodNotAllowed = { request, allowed in
            if APNsRoutes.isAPNsPath(request.path) { return APNsRoutes.unmatched(request, methodExists: true) }
            var response = GoogleErrorResponse.protocolError(
                status: 405, message: "\(request.method) is not allowed on \(request.path); use \(allowed.joined(separator: " or ")).")
            response.headers.set("allow", allowed.joined(separator: ", "))
            return response
        }
        // Built once: the probe is polled, and its answer never changes.
        let healthBody = Array(#"{"status":"ok"}"#.utf8)
        router.add("GET", "/healthz") { _ in .json(200, healthBody) }
        let caPEM = settings.caPEM
        router.add("GET", "/emulator/v1/ca.pem") { _ in
            guard let caPEM else {
                return GoogleErrorResponse.protocolError(status: 404, message: "No local CA: the emulator was started with --tls-cert/--tls-key.")
            }
            return .text(200, caPEM, contentType: "application/x-pem-file")
        }
        // The API's own description (docs/openapi.json, compiled in: see scripts/embed-openapi.sh).
        let openAPIBody = Array(OpenAPIDocument.text.utf8)
        router.add("GET", "/emulator/v1/openapi.json") { _ in .json(200, openAPIBody) }
        if settings.debugRoutes { DebugRoutes().register(in: &router) }
        InboxRoutes().register(in: &router)
        // Tokens are timed on the real clock, never the emulator's, and checked by their tag under
        // a key made now, so that nothing is kept per token: see docs/auth.md.
        let tokens = AccessTokenIssuer(lifetimeSeconds: settings.oauth.accessTokenLifetimeSeconds, loops: settings.loops)
        OAuthRoutes(
            endpoint: TokenEndpoint(accounts: settings.oauth.serviceAccounts, issuer: tokens), core: core, wallTime: wallTime)
            .register(in: &router)
        let auth = RequestAuthenticator(mode: settings.auth, tokens: tokens, wallTime: wallTime)
        FCMRoutes(core: core, auth: auth, events: events).register(in: &router)
        LegacyFCMRoutes().register(in: &router)
        TopicRoutes(core: core, auth: auth).register(in: &router)
        InstanceIDRoutes(core: core, auth: auth).register(in: &router)
        DeviceRoutes(core: core, streams: streams, events: events, heartbeatSeconds: settings.heartbeatSeconds)
            .register(in: &router)
        EmulatorRoutes(core: core, streams: streams, events: events).register(in: &router)
        EventRoutes(events: events, heartbeatSeconds: settings.heartbeatSeconds).register(in: &router)
        StateRoutes(core: core, streams: streams, events: events).register(in: &router)
        FaultRoutes(core: core, events: events).register(in: &router)
        QuotaRoutes(core: core).register(in: &router)
        WebhookRoutes(webhooks: webhooks).register(in: &router)
        APNsRoutes(core: core, settings: settings.apns, events: events, loops: settings.loops).register(in: &router)
        let metrics = MetricsEndpoint(core: core, loops: settings.loops, logWaiters: events.logWaiters, webhooks: webhooks)
        metrics.register(in: &router)
        router.observer = { [requests = metrics.requests] route, method, status, loop in
            requests.record(route: route, method: method, status: status, loop: loop)
        }
        self.router = router
        self.core = core
        self.webhooks = webhooks
    }

    /// Stops what runs beside the routes (the webhooks' threads): at shutdown, once the server
    /// has stopped.
    public func stop() {
        webhooks.stopAll()
    }

    /// Whether a TLS host name (SNI) is one of Apple's provider API hosts: connections to them
    /// start with Apple's stream limit (`APNsSettings.streamsBeforeAuthentication`).
    public static func isAppleHost(_ serverName: String?) -> Bool {
        APNsHost.isApple(serverName)
    }

    /// Answers a request.
    public func handle(_ request: consuming HTTPRequest) -> HTTPResponse {
        router.handle(request)
    }
}
