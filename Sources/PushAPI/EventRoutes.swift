import ByteCoding
import HTTPServer
import PushCore

/// `GET /emulator/v1/events`: the event feed as Server-Sent Events (docs/events.md).
struct EventRoutes {
    let events: EventFeed
    /// Seconds between SSE heartbeat comments.
    let heartbeatSeconds: Int

    func register(in router: inout Router) {
        router.add("GET", "/emulator/v1/events") { request in watch(request) }
    }

    private func watch(_ request: HTTPRequest) -> HTTPResponse {
        let project = request.queryItem("project")
        if let project, !ProjectID.isValid(project) {
            return ControlPlane.error(.invalidArgument("project must be a project id; got \"\(project)\"."))
        }
        guard events.hasRoom else {
            return ControlPlane.error(.resourceExhausted(
                "\(EventFeed.maximumWatchers) event streams are open, the most the emulator keeps; close one first."))
        }
        let events = self.events
        let heartbeat = heartbeatSeconds
        return HTTPResponse(status: 200, headers: ServerSentEvents.headers, body: .stream { stream in
            // The comment goes first, then the stream watches: nothing is published before it.
            stream.write(": watching \(project.map { "project \($0)" } ?? "every project")\n\n")
            guard events.watch(stream, project: project) else {
                stream.write("event: error\ndata: {\"error\":\"too many event streams are open\"}\n\n")
                stream.finish()
                return
            }
            ServerSentEvents.scheduleHeartbeat(stream, seconds: heartbeat)
        })
    }
}
