import ByteCoding
import HTTPServer
import PushCore

/// `/emulator/v1/projects/{project}/webhooks` — a project's webhooks (docs/webhooks.md): `GET`
/// lists them, `POST` adds one, `DELETE .../{id}` removes one; `GET /emulator/v1/webhooks` lists
/// those of `--webhook`.
struct WebhookRoutes {
    let webhooks: Webhooks

    func register(in router: inout Router) {
        router.add("GET", "/emulator/v1/webhooks") { _ in list(of: nil) }
        router.add("GET", "/emulator/v1/projects/{project}/webhooks") { request in
            list(of: request.pathParameters["project"] ?? "")
        }
        router.add("POST", "/emulator/v1/projects/{project}/webhooks") { request in add(request) }
        router.add("DELETE", "/emulator/v1/projects/{project}/webhooks/{webhookId}") { request in
            let project = request.pathParameters["project"] ?? ""
            let id = request.pathParameters["webhookId"] ?? ""
            guard webhooks.remove(id: id, project: project) else {
                return ControlPlane.error(.notFound("Project \(project) has no webhook \(id)."))
            }
            return ControlPlane.ok(.object(JSONObject()))
        }
    }

    private func list(of project: String?) -> HTTPResponse {
        ControlPlane.ok(.object(["webhooks": .array(webhooks.targets(of: project).map(\.json))]))
    }

    private func add(_ request: HTTPRequest) -> HTTPResponse {
        let project = request.pathParameters["project"] ?? ""
        do throws(GoogleError) {
            let body = try JSONRequestBody(request, allowedKeys: ["url", "caCertificate"])
            guard let text = try body.string("url") else {
                throw .invalidArgument("url is required: the http:// or https:// URL to post events to.",
                                       fieldViolations: [GoogleFieldViolation(field: "url", description: "required")])
            }
            let url: HTTPClientURL
            do throws(HTTPClientError) {
                url = try HTTPClientURL(text)
            } catch {
                throw .invalidArgument("url: \(error)", fieldViolations: [GoogleFieldViolation(field: "url", description: error.description)])
            }
            let target = try webhooks.add(url: url, project: project, caPEM: try body.string("caCertificate"))
            return ControlPlane.ok(target.json)
        } catch {
            return ControlPlane.error(error)
        }
    }
}
