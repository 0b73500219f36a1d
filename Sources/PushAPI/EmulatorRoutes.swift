import ByteCoding
import HTTPServer
import PushCore

/// The rest of the control plane: the message log, the clock and resets (`/emulator/v1`).
struct EmulatorRoutes {
    let core: PushEmulatorCore
    let streams: DeviceStreams
    let events: EventFeed

    func register(in router: inout Router) {
        router.add("GET", "/emulator/v1/projects") { request in
            ControlPlane.listing {
                let page = try core.projects(page: try ControlPlane.page(request))
                return ControlPlane.list("projects", page) { $0.json }
            }
        }
        router.add("GET", "/emulator/v1/projects/{project}/messages") { request in messages(request) }
        router.add("GET", "/emulator/v1/projects/{project}/messages/{messageId}") { request in
            let id = request.pathParameters["messageId"] ?? ""
            guard let message = core.message(project: request.pathParameters["project"] ?? "", messageID: id) else {
                return ControlPlane.error(.notFound("No message \(id) in the log."))
            }
            return ControlPlane.ok(message.json)
        }
        router.add("DELETE", "/emulator/v1/projects/{project}/messages") { request in
            let project = request.pathParameters["project"] ?? ""
            core.clearMessages(project: project)
            events.publish(.project(project, change: "messagesCleared"))
            return ControlPlane.ok(.object(JSONObject()))
        }
        router.add("GET", "/emulator/v1/projects/{project}/topics") { request in
            ControlPlane.listing {
                let page = try core.topics(project: request.pathParameters["project"] ?? "", page: try ControlPlane.page(request))
                return ControlPlane.list("topics", page) { $0.json }
            }
        }
        router.add("GET", "/emulator/v1/projects/{project}/deliveries/{file}") { request in simulatorFile(request) }
        router.add("GET", "/emulator/v1/clock") { _ in clock() }
        router.add("POST", "/emulator/v1/clock:advance") { request in advance(request) }
        router.add("POST", "/emulator/v1/clock:reset") { _ in
            core.resetClock()
            events.publish(.clock(core.clock))
            return clock()
        }
        router.add("DELETE", "/emulator/v1/projects/{project}") { request in
            let project = request.pathParameters["project"] ?? ""
            core.resetProject(project)
            streams.finish(project: project)
            events.publish(.project(project, change: "reset"))
            // Set for the project, so gone with it (docs/webhooks.md).
            events.webhooks.removeAdded(project: project)
            // A large project's queues and log were just freed: let the process shrink, once the resets stop.
            FreeMemory.releaseSoon()
            return ControlPlane.ok(.object(JSONObject()))
        }
        router.add("DELETE", "/emulator/v1/state") { _ in
            core.resetAll()
            streams.finish()
            events.publish(.state(change: "reset"))
            events.webhooks.removeAdded(project: nil)
            FreeMemory.releaseSoon()
            return ControlPlane.ok(.object(JSONObject()))
        }
    }

    private func messages(_ request: HTTPRequest) -> HTTPResponse {
        var state: DeliveryState?
        if let text = request.queryItem("state") {
            guard let value = DeliveryState(rawValue: text) else {
                let names = DeliveryState.allCases.map(\.rawValue).joined(separator: ", ")
                return ControlPlane.error(.invalidArgument("state must be one of \(names); got \"\(text)\"."))
            }
            state = value
        }
        var origin: DeliveryOrigin?
        if let text = request.queryItem("origin") {
            guard let value = DeliveryOrigin(rawValue: text) else {
                return ControlPlane.error(.invalidArgument("origin must be one of fcm, apns; got \"\(text)\"."))
            }
            origin = value
        }
        var after: UInt64?
        if let text = request.queryItem("after") {
            guard let id = UInt64(text), String(id) == text else {
                return ControlPlane.error(.invalidArgument(
                    "after must be a message id, the number at the end of a message's name; got \"\(text)\"."))
            }
            after = id
        }
        var waitMilliseconds = 0
        if let text = request.queryItem("waitSeconds") {
            guard let seconds = Double(text), seconds >= 0, seconds <= Self.longestWaitSeconds else {
                return ControlPlane.error(.invalidArgument(
                    "waitSeconds must be a number of seconds from 0 to \(Int(Self.longestWaitSeconds)); got \"\(text)\"."))
            }
            // A fraction of a millisecond still waits one.
            waitMilliseconds = Int((seconds * 1_000).rounded(.up))
        }
        // An empty search box reads as no search.
        let text = request.queryItem("text").flatMap { $0.isEmpty ? nil : $0 }
        let filter = MessageLogFilter(
            token: request.queryItem("token"), topic: request.queryItem("topic"), state: state, origin: origin, text: text,
            afterMessageID: after)
        let project = request.pathParameters["project"] ?? ""
        let page: PageRequest
        do {
            page = try ControlPlane.page(request)
        } catch {
            return ControlPlane.error(error)
        }
        let core = core
        // The read: its answer, and whether it found anything.
        @Sendable func read() -> (response: HTTPResponse, found: Bool) {
            var found = false
            let response = ControlPlane.listing {
                let listed = try core.messages(project: project, filter: filter, page: page)
                found = !listed.items.isEmpty
                return ControlPlane.list("messages", listed) { $0.json }
            }
            return (response, found)
        }
        let now = read()
        guard waitMilliseconds > 0, !now.found, now.response.status == 200 else { return now.response }
        let waiters = events.logWaiters
        let wait = waitMilliseconds
        return .deferred { answer in
            let waiting = waiters.wait(
                project: project, answer: answer, waitMilliseconds: wait,
                read: { let again = read(); return again.found ? again.response : nil }, finalRead: { read().response })
            guard waiting else {
                return answer.respond(ControlPlane.error(.resourceExhausted(
                    "Too many waiting reads: \(LogWaiters.maximumWaiters) wait already. Wait less long, or read without waitSeconds.")))
            }
        }
    }

    /// The longest a read of the message log may wait (`waitSeconds`).
    static let longestWaitSeconds = 60.0

    /// A delivery as an iOS Simulator push file (`d-17.apns`), offered as a download.
    private func simulatorFile(_ request: HTTPRequest) -> HTTPResponse {
        let file = request.pathParameters["file"] ?? ""
        guard file.hasSuffix(".apns") else {
            return ControlPlane.error(.notFound("No such file: deliveries are offered as Simulator push files, d-<number>.apns."))
        }
        let id = String(file.dropLast(".apns".count))
        guard let delivery = core.delivery(project: request.pathParameters["project"] ?? "", id: id) else {
            return ControlPlane.error(.notFound("Delivery \(id) was not found in this project."))
        }
        if let message = delivery.platformMessage {
            return ControlPlane.error(.notFound(
                "Delivery \(id) is to an \(message.platform.rawValue) device: Simulator push files hold Apple deliveries only."))
        }
        var headers = HTTPHeaders()
        headers.set("content-disposition", "attachment; filename=\"\(SimulatorPushFile.fileName(of: delivery))\"")
        return .json(200, JSONSerializer.serialize(SimulatorPushFile.json(for: delivery)), headers: headers)
    }

    private func clock() -> HTTPResponse {
        let clock = core.clock
        return ControlPlane.ok(["now": .string(clock.now.rfc3339), "offsetSeconds": .number(String(clock.offsetSeconds))])
    }

    private func advance(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let body = try JSONRequestBody(request, allowedKeys: ["seconds"])
            guard let seconds = try body.integer("seconds") else {
                return ControlPlane.error(.invalidArgument("seconds is required: the number of seconds to move the clock forward."))
            }
            guard seconds >= 0 else {
                return ControlPlane.error(.invalidArgument("seconds must not be negative: the clock only moves forward (use clock:reset)."))
            }
            core.advanceClock(seconds: seconds)
            events.publish(.clock(core.clock))
        } catch {
            return ControlPlane.error(error)
        }
        return clock()
    }
}
