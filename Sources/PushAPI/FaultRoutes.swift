import ByteCoding
import HTTPServer
import PushCore

/// `/emulator/v1/projects/{project}/faults[/{id}]` — fault injection (docs/faults.md).
struct FaultRoutes {
    let core: PushEmulatorCore
    let events: EventFeed

    private static let keys: Set<String> = [
        "match", "error", "connection", "times", "retryAfterSeconds", "delayMs", "probability", "seed",
    ]

    func register(in router: inout Router) {
        router.add("POST", "/emulator/v1/projects/{project}/faults") { request in create(request) }
        router.add("GET", "/emulator/v1/projects/{project}/faults") { request in
            ControlPlane.listing {
                let page = try core.faults(project: request.pathParameters["project"] ?? "", page: try ControlPlane.page(request))
                return ControlPlane.list("faults", page) { $0.json }
            }
        }
        router.add("DELETE", "/emulator/v1/projects/{project}/faults") { request in
            let project = request.pathParameters["project"] ?? ""
            core.deleteFaults(project: project)
            events.publish(.project(project, change: "faultsDeleted"))
            return ControlPlane.ok(.object(JSONObject()))
        }
        router.add("GET", "/emulator/v1/projects/{project}/faults/{id}") { request in
            let project = request.pathParameters["project"] ?? ""
            let id = request.pathParameters["id"] ?? ""
            guard let number = Int(id), let fault = core.fault(project: project, id: number) else { return Self.notFound(id) }
            return ControlPlane.ok(fault.json)
        }
        router.add("DELETE", "/emulator/v1/projects/{project}/faults/{id}") { request in
            let project = request.pathParameters["project"] ?? ""
            let id = request.pathParameters["id"] ?? ""
            guard let number = Int(id), core.deleteFault(project: project, id: number) else { return Self.notFound(id) }
            events.publish(.project(project, change: "faultDeleted", faultID: number))
            return ControlPlane.ok(.object(JSONObject()))
        }
    }

    private func create(_ request: HTTPRequest) -> HTTPResponse {
        do throws(GoogleError) {
            let body = try JSONRequestBody(request, allowedKeys: Self.keys)
            var fields: [(key: String, value: String)] = []
            if let object = try body.object("match") {
                let match = try JSONRequestBody(object: object, allowedKeys: Set(FaultMatch.keys), path: "match")
                for key in FaultMatch.keys {
                    if let value = try match.string(key) { fields.append((key, value)) }
                }
            }
            let spec = try FaultSpec(
                match: try FaultMatch(fields: fields), errorName: try body.string("error"), times: try body.integer("times"),
                retryAfterSeconds: try body.integer("retryAfterSeconds"), delayMilliseconds: try body.integer("delayMs"),
                probability: try body.double("probability"), seed: try body.integer("seed"),
                connectionName: try body.string("connection"))
            let project = request.pathParameters["project"] ?? ""
            let fault = try core.addFault(project: project, spec)
            events.publish(.project(project, change: "faultAdded", faultID: fault.id))
            return ControlPlane.ok(fault.json, status: 201)
        } catch {
            return ControlPlane.error(error)
        }
    }

    private static func notFound(_ id: String) -> HTTPResponse {
        ControlPlane.error(.notFound("Fault \(id) does not exist in this project."))
    }
}
