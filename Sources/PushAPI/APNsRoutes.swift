import HTTPServer
import Locking
import PushCore

/// `POST /3/device/{token}` — the APNs provider API (docs/apns.md).
struct APNsRoutes {
    let core: PushEmulatorCore
    let settings: APNsSettings
    let events: EventFeed
    /// Draws the `apns-unique-id`s of development-environment answers.
    private let uniqueIDs: UniqueIDSource

    /// The provider API over `core`, answering on `loops` event loops; accepted pushes are told
    /// to `events`.
    init(core: PushEmulatorCore, settings: APNsSettings, events: EventFeed, loops: Int = 1) {
        self.core = core
        self.settings = settings
        self.events = events
        uniqueIDs = UniqueIDSource(loops: loops)
    }

    /// The push route's template (`/metrics` counts sends under it).
    static let sendTemplate = "/3/device/{token}"

    func register(in router: inout Router) {
        router.add("POST", Self.sendTemplate) { request in send(request) }
    }

    /// Whether a path is the provider API's, whose unmatched paths and methods get Apple's answers.
    static func isAPNsPath(_ path: String) -> Bool {
        path.hasPrefix("/3/") || path == "/3"
    }

    /// Apple's answer to a path or method no route takes: 405 MethodNotAllowed on `/3/device/...`,
    /// 400 MissingDeviceToken for a POST to `/3/device/`, 404 BadPath otherwise.
    static func unmatched(_ request: HTTPRequest, methodExists: Bool) -> HTTPResponse {
        if request.version != .http2 { return APNsErrorResponse.serverError(505) }
        let apnsID = APNsErrorResponse.echoable(request.headers["apns-id"]) ?? APNsErrorResponse.generatedID()
        if methodExists { return APNsErrorResponse.make(.methodNotAllowed, apnsID: apnsID) }
        if request.path == "/3/device/" || request.path == "/3/device" {
            return APNsErrorResponse.make(request.method == "POST" ? .missingDeviceToken : .methodNotAllowed, apnsID: apnsID)
        }
        return APNsErrorResponse.make(.badPath, apnsID: apnsID)
    }

    /// Checks in Apple's order (docs/apns.md): headers and path, the device, the provider
    /// token, the payload; then queues the notification.
    func send(_ request: HTTPRequest) -> HTTPResponse {
        // Apple's API is HTTP/2 only (docs/apns.md says what an HTTP/1.1 client gets).
        if request.version != .http2 { return APNsErrorResponse.serverError(505) }
        let state = request.connection?.attachment(APNsConnectionState.self) { APNsConnectionState() }
        var given = APNsRequestHeaders(expectedCount: request.headers.count)
        let authorization = Self.read(request.headers, into: &given)
        // Echoed on every answer, errors too: the first `apns-id` as sent, when it is a valid one.
        let givenID = APNsErrorResponse.echoable(given.id)
        var apnsRequest: APNsRequest
        do {
            apnsRequest = try APNsRequest(
                deviceToken: request.pathParameters["token"] ?? "", headers: consume given, requiresTopic: settings.auth != .off)
        } catch {
            return APNsErrorResponse.make(error, apnsID: givenID ?? APNsErrorResponse.generatedID())
        }
        let isProduction = settings.isProduction(
            host: request.authority ?? request.headers["host"] ?? request.connection?.serverName)
        let recipient: APNsRecipient
        switch core.apnsRecipient(
            deviceToken: apnsRequest.deviceToken, bundleID: apnsRequest.bundleID,
            environment: isProduction ? .production : .development, defaultProject: settings.project)
        {
        case .success(let found): recipient = found
        case .failure(.unregistered(let since)):
            return APNsErrorResponse.make(.unregistered, apnsID: givenID ?? APNsErrorResponse.generatedID(), unregisteredSince: since)
        case .failure(.notForTopic):
            return APNsErrorResponse.make(.deviceTokenNotForTopic, apnsID: givenID ?? APNsErrorResponse.generatedID())
        case .failure(.otherEnvironment):
            return APNsErrorResponse.make(.badDeviceToken, apnsID: givenID ?? APNsErrorResponse.generatedID())
        }
        if let reason = authenticate(authorization, on: request.connection, state: state) {
            return APNsErrorResponse.make(reason, apnsID: givenID ?? APNsErrorResponse.generatedID())
        }
        do {
            try apnsRequest.checkPayload(request.body)
        } catch {
            return APNsErrorResponse.make(error, apnsID: givenID ?? APNsErrorResponse.generatedID())
        }
        let loop = request.connection?.loop ?? 0
        let project = recipient.project
        let fired = core.fireFault(
            project: project, on: .apns(deviceToken: apnsRequest.deviceToken, pushType: apnsRequest.pushType))
        guard let fired else {
            return perform(recipient, apnsRequest, givenID: givenID, body: request.body, isProduction: isProduction, loop: loop)
        }
        events.publish(.fault(project: project, fired, api: "apns"))
        let body = request.body
        let core = core
        let checked = apnsRequest
        return FaultAnswer.respond(after: fired.delayMilliseconds) { [self] in
            var error: HTTPResponse?
            var reason = APNsReason.shutdown
            if case .apns(let injected)? = fired.error {
                reason = injected
                error = APNsErrorResponse.make(
                    injected, apnsID: givenID ?? APNsErrorResponse.generatedID(), unregisteredSince: core.now,
                    retryAfterSeconds: fired.retryAfterSeconds)
            }
            return FaultAnswer.answer(fired, error: error, goAwayReason: reason.rawValue) {
                perform(recipient, checked, givenID: givenID, body: body, isProduction: isProduction, loop: loop)
            }
        }
    }

    /// Reads the request's `apns-*` and `authorization` headers into `given`, and returns the
    /// first `authorization`.
    private static func read(_ headers: HTTPHeaders, into given: inout APNsRequestHeaders) -> String? {
        var authorization: String?
        headers.forEachField(where: { mayBeAPNsHeaderName($0.span) }) { name, value in
            let known = APNsHeaderName(lowercaseName: name.span)
            guard known != nil || name.startsLonger(than: "apns-") else { return }
            let field = HeaderField(
                lowercaseName: known?.rawValue ?? String(decoding: name, as: UTF8.self),
                String(decoding: value, as: UTF8.self))
            if known == .authorization, authorization == nil { authorization = field.value }
            given.add(known, field)
        }
        return authorization
    }

    /// Queues the notification once every check passed and no fault stands in the way.
    private func perform(
        _ recipient: APNsRecipient, _ apnsRequest: APNsRequest, givenID: String?, body: [UInt8], isProduction: Bool, loop: Int
    ) -> HTTPResponse {
        var generatedID: RandomUUID?
        let outcome = core.send(
            project: recipient.project, target: .apnsToken(apnsRequest.deviceToken), origin: .apns,
            requestBody: body, implicitBundleID: apnsRequest.bundleID, knownDevice: recipient.device
        ) { (context: DeliveryContext) -> Result<DeliveryContent?, APNsReason> in
            if givenID == nil { generatedID = context.generatedAPNsID }
            return .success(apnsRequest.notification(payload: body, context: context))
        }
        // The `apns-id` of an error answer; a success writes its ids as bytes (`success`).
        func errorID() -> String { givenID ?? generatedID?.text ?? APNsErrorResponse.generatedID() }
        // Looked into only while somebody watches: a send pays nothing else for the feed.
        if events.isWatched, case .accepted(let sent) = outcome, events.wantsEvent(of: recipient.project) {
            events.publish(.message(project: recipient.project, sent, origin: .apns, target: .apnsToken(apnsRequest.deviceToken)))
        }
        switch consume outcome {
        case .accepted:
            return success(givenID: givenID, generatedID: generatedID, isProduction: isProduction, loop: loop)
        case .unreachable(.unregistered(let since)):
            return APNsErrorResponse.make(.unregistered, apnsID: errorID(), unregisteredSince: since)
        case .unreachable(.invalidRegistration):
            return APNsErrorResponse.make(.badDeviceToken, apnsID: errorID())
        case .rejected(let reason):
            return APNsErrorResponse.make(reason, apnsID: errorID())
        case .throttled:
            // Too many pushes to the device token (docs/quotas.md).
            return APNsErrorResponse.make(.tooManyRequests, apnsID: errorID())
        case .exhausted:
            // Apple's body holds a reason only; docs/state.md says which counter to look at.
            return APNsErrorResponse.make(.internalServerError, apnsID: errorID())
        }
    }

    /// Apple's success: `apns-id` (the sender's, or the one generated for the push) and, for the
    /// development environment, `apns-unique-id`. Added one by one (a dictionary literal goes
    /// through an array of pairs first), under their lowercase names (`add(_:_:)` would lower-case
    /// them again: about 170 instructions a push that echoes an id); the generated ids go in as
    /// the bytes of their text, without a `String` of each, each written by a closure literal (a
    /// method passed as a value was a heap-allocated context each time).
    private func success(givenID: String?, generatedID: RandomUUID?, isProduction: Bool, loop: Int) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let givenID {
            headers.add(lowercaseName: "apns-id", valueByteCount: givenID.utf8.count) { room in
                var room = room.mutableSpan
                let given = givenID.utf8.span
                for index in given.indices { room[index] = given[index] }
            }
        } else {
            let id = generatedID ?? uniqueIDs.next(loop: loop)
            headers.add(lowercaseName: "apns-id", valueByteCount: RandomUUID.textByteCount) { room in
                var room = room.mutableSpan
                id.writeText(into: &room)
            }
        }
        if !isProduction {
            let uniqueID = uniqueIDs.next(loop: loop)
            headers.add(lowercaseName: "apns-unique-id", valueByteCount: RandomUUID.textByteCount) { room in
                var room = room.mutableSpan
                uniqueID.writeText(into: &room)
            }
        }
        return HTTPResponse(status: 200, headers: headers)
    }

    /// Checks the provider token against the connection's state; a connection to one of
    /// Apple's host names gets its full stream limit at its first authenticated request.
    private func authenticate(
        _ authorization: String?, on connection: ConnectionSession?, state: APNsConnectionState?
    ) -> APNsReason? {
        let now = core.now
        guard let connection, let state else {
            var tokens = ProviderTokenSession()
            return tokens.check(authorization: authorization, mode: settings.auth, keys: settings.keys, now: now)
        }
        let reason = state.tokens.withLock {
            $0.check(authorization: authorization, mode: settings.auth, keys: settings.keys, now: now)
        }
        if reason == nil, state.noteAuthenticated(), APNsHost.isApple(connection.serverName) {
            connection.limitConcurrentStreams(to: settings.streamsAfterAuthentication)
        }
        return reason
    }

    /// Whether a (lower-case) name may be `apns-*` or `authorization`, the headers the provider
    /// API reads: two bytes rule out nearly every other header without comparing text (every
    /// header of every push passes here); `read` tells the rest apart.
    private static func mayBeAPNsHeaderName(_ name: Span<UInt8>) -> Bool {
        name.count > 5 && name[0] == UInt8(ascii: "a") && (name[1] == UInt8(ascii: "p") || name[1] == UInt8(ascii: "u"))
    }
}

/// Fresh UUIDs from fast generators seeded once (a system call per answer would cost more
/// than the rest of it), one per event loop.
private final class UniqueIDSource: Sendable {
    private let random: PerLoop<SeededRandomNumberGenerator>

    init(loops: Int) {
        random = PerLoop(loops: loops) { SeededRandomNumberGenerator(seed: UInt64.random(in: .min ... .max)) }
    }

    /// A new UUID, from loop number `loop`'s generator.
    func next(loop: Int) -> RandomUUID {
        random.withLock(loop: loop) { RandomUUID(using: &$0) }
    }
}
