import ByteCoding
import HTTPServer
import PushCore

/// FCM's v1 topic API: `/v1/projects/{project}/registrations/{registration}/topicSubscriptions`.
/// Query parameters are taken in both spellings (`topicName`/`topic_name`,
/// `allowMissing`/`allow_missing`), as Google's front end accepts them.
struct TopicRoutes {
    let core: PushEmulatorCore
    let auth: RequestAuthenticator

    func register(in router: inout Router) {
        let base = "/v1/projects/{project}/registrations/{registration}/topicSubscriptions"
        router.add("POST", base) { request in authorized(request, create) }
        router.add("GET", base) { request in authorized(request, list) }
        router.add("GET", base + "/{topic}") { request in authorized(request, get) }
        router.add("DELETE", base + "/{topic}") { request in authorized(request, delete) }
    }

    private func authorized(_ request: HTTPRequest, _ handler: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        auth.reject(request) ?? handler(request)
    }

    private func create(_ request: HTTPRequest) -> HTTPResponse {
        let topic: String
        do {
            let body = try JSONRequestBody(request, allowedKeys: ["topicName", "topic_name"])
            var name = Self.query(request, "topicName", "topic_name")
            if name == nil { name = try body.string("topicName") }
            if name == nil { name = try body.string("topic_name") }
            guard let name else {
                return ControlPlane.error(.fcmInvalidArgument(
                    "The topic name is missing: pass ?topicName=<topic> (or topic_name).", field: "topic_name"))
            }
            topic = name
        } catch {
            return ControlPlane.error(error)
        }
        switch core.subscribe(project: project(request), registration: registration(request), topic: topic) {
        case .success(let subscription): return ControlPlane.ok(subscription.json(project: project(request)))
        case .failure(let error): return ControlPlane.error(error.googleError)
        }
    }

    private func get(_ request: HTTPRequest) -> HTTPResponse {
        let topic = request.pathParameters["topic"] ?? ""
        switch core.subscription(project: project(request), registration: registration(request), topic: topic) {
        case .success(let subscription): return ControlPlane.ok(subscription.json(project: project(request)))
        case .failure(let error): return ControlPlane.error(error.googleError)
        }
    }

    private func delete(_ request: HTTPRequest) -> HTTPResponse {
        let topic = request.pathParameters["topic"] ?? ""
        let allowMissing: Bool
        switch Self.query(request, "allowMissing", "allow_missing") {
        case nil, "false"?: allowMissing = false
        case "true"?: allowMissing = true
        case let other?:
            return ControlPlane.error(.invalidArgument("Invalid value for allowMissing: \"\(other)\"; use true or false."))
        }
        switch core.unsubscribe(project: project(request), registration: registration(request), topic: topic) {
        case .success: return ControlPlane.ok(.object(JSONObject()))
        case .failure(.notSubscribed) where allowMissing: return ControlPlane.ok(.object(JSONObject()))
        case .failure(let error): return ControlPlane.error(error.googleError)
        }
    }

    private func list(_ request: HTTPRequest) -> HTTPResponse {
        ControlPlane.listing {
            let pageRequest = try ControlPlane.page(request)
            let project = self.project(request)
            switch try core.subscriptions(project: project, registration: registration(request), page: pageRequest) {
            case .success(let page):
                return ControlPlane.list("topicSubscriptions", page) { $0.json(project: project) }
            case .failure(let error):
                return ControlPlane.error(error.googleError)
            }
        }
    }

    private static func query(_ request: HTTPRequest, _ names: String...) -> String? {
        names.lazy.compactMap { request.queryItem($0) }.first
    }

    private func project(_ request: HTTPRequest) -> String { request.pathParameters["project"] ?? "" }
    private func registration(_ request: HTTPRequest) -> String { request.pathParameters["registration"] ?? "" }
}
