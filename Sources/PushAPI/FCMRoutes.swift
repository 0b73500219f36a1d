import ByteCoding
import HTTPServer
import PushCore

/// `POST /v1/projects/{project}/messages:send` — FCM HTTP v1.
struct FCMRoutes {
    let core: PushEmulatorCore
    let auth: RequestAuthenticator
    let events: EventFeed

    /// The send route's template (`/metrics` counts sends under it).
    static let sendTemplate = "/v1/projects/{project}/messages:send"

    func register(in router: inout Router) {
        router.add("POST", Self.sendTemplate) { request in send(request) }
    }

    func send(_ request: HTTPRequest) -> HTTPResponse {
        let project = request.pathParameters["project"] ?? ""
        // A send refused here is a client error, which the project's quota counts (docs/quotas.md).
        func refused(_ response: HTTPResponse) -> HTTPResponse {
            core.countClientError(project: project)
            return response
        }
        if let rejection = auth.reject(request) { return refused(rejection) }
        let sendRequest: FCMSendRequest
        do {
            sendRequest = try FCMSendRequest(body: request.body)
        } catch {
            return refused(GoogleErrorResponse.make(error))
        }
        let message = sendRequest.message
        let target = message.target
        if target.isTopicMessage, message.topicPayloadByteCount > FCMMessage.topicPayloadSizeLimit {
            return refused(GoogleErrorResponse.make(
                .fcmMessageTooBig(byteCount: message.topicPayloadByteCount, limit: FCMMessage.topicPayloadSizeLimit)))
        }
        if let fired = core.fireFault(project: project, on: .fcm(target)) {
            return answer(fired, project: project, target: target, sendRequest: sendRequest, body: request.body)
        }
        return Self.perform(
            core: core, events: events, project: project, message: message, validateOnly: sendRequest.validateOnly, body: request.body)
    }

    /// A fired fault's answer (docs/faults.md): FCM's error for its code, or, for a pure
    /// delay, the send itself — after the delay, when there is one.
    private func answer(
        _ fired: FiredFault, project: String, target: MessageTarget, sendRequest: FCMSendRequest, body: [UInt8]
    ) -> HTTPResponse {
        let core = core
        let events = events
        events.publish(.fault(project: project, fired, api: "fcm"))
        // The delay holds what the send needs, not the request: a body padded to a megabyte is
        // kept as the log would keep it (the log keeps this same copy).
        let body = LoggedRequestBody.kept(body)
        return FaultAnswer.respond(after: fired.delayMilliseconds) {
            var error: HTTPResponse?
            if case .fcm(let code)? = fired.error {
                let toDevice = if case .token = target { true } else if case .fid = target { true } else { false }
                error = GoogleErrorResponse.make(.fcm(code, toDevice: toDevice, retryAfterSeconds: fired.retryAfterSeconds))
            }
            return FaultAnswer.answer(fired, error: error, goAwayReason: nil) {
                Self.perform(
                    core: core, events: events, project: project, message: sendRequest.message, validateOnly: sendRequest.validateOnly,
                    body: body)
            }
        }
    }

    /// The send once the request is checked and no fault stands in the way.
    private static func perform(
        core: PushEmulatorCore, events: EventFeed, project: String, message: FCMMessage, validateOnly: Bool, body: [UInt8]
    ) -> HTTPResponse {
        if validateOnly {
            let checked = core.checkSend(project: project, message: message)
            switch checked {
            case .success(.deliverable): return Self.name("projects/\(project)/messages/fake_message_id")
            case .success(.unreachable(let reason)): return GoogleErrorResponse.make(.fcm(reason))
            case .failure(let error): return GoogleErrorResponse.make(error)
            }
        }
        // Read before the send, and only while somebody watches: read after, it kept the request
        // alive across the send (a copy of it, hundreds of instructions).
        let watchedTarget = events.isWatched ? message.target : nil
        let outcome = core.send(project: project, message: message, requestBody: body)
        // Taken apart rather than copied from: only the name is needed.
        switch consume outcome {
        case .accepted(let sent):
            // Built only while somebody watches: a send pays nothing else for the feed.
            if let watchedTarget, events.wantsEvent(of: project) {
                events.publish(.message(project: project, sent, origin: .fcm, target: watchedTarget))
            }
            return Self.name(sent.messageName)
        case .unreachable(let reason): return GoogleErrorResponse.make(.fcm(reason))
        case .rejected(let error): return GoogleErrorResponse.make(error)
        case .exhausted(let exhausted): return GoogleErrorResponse.make(exhausted.googleError)
        case .throttled(let kind, let token): return throttled(kind, core: core, project: project, token: token)
        }
    }

    /// FCM's 429 for the limit that refused a send (docs/quotas.md).
    /// (The token comes with the outcome: reading the request's target after the send kept the
    /// request alive across it, which cost about 550 instructions a send, by make perf-count.)
    private static func throttled(_ kind: QuotaKind, core: PushEmulatorCore, project: String, token: String?) -> HTTPResponse {
        let limits = core.quotaLimits(project: project)
        guard kind.isPerDevice else {
            return GoogleErrorResponse.make(
                .fcmProjectQuotaExceeded(
                    projectNumber: core.senderID(forProject: project), limit: limits.projectMessagesPerMinute ?? 0))
        }
        let limit =
            switch kind {
            case .androidDeviceHour: limits.androidDevicePerHour
            case .appleDeviceMinute: limits.appleDevicePerMinute
            default: limits.androidDevicePerMinute
            }
        return GoogleErrorResponse.make(.fcmDeviceQuotaExceeded(kind, limit: limit, token: token))
    }

    /// `{"name": ...}`, written straight into the body: every send answers with it.
    private static func name(_ name: String) -> HTTPResponse {
        .json(200, JSONSerializer.object(key: "name", string: name))
    }

    /// `name(_:)` for a sent message's name, written from its parts.
    private static func name(_ name: MessageName) -> HTTPResponse {
        .json(200, JSONBufferWriter.bytes(capacity: 64) { output in
            JSONSerializer.append("{\"name\":", to: &output)
            name.writeJSONString(to: &output)
            output.appendByte(0x7D)  // }
        })
    }
}
