import ByteCoding
import HTTPServer
import PushCore

/// `/emulator/v1/projects/{project}/quotas` — a project's rate limits (docs/quotas.md): `GET`
/// reads them, `PATCH` changes those given (a number from 1, or null for no limit).
struct QuotaRoutes {
    let core: PushEmulatorCore

    /// The most any limit may be set to: far above any rate a test reaches.
    static let maximumLimit: Int64 = 1_000_000_000

    func register(in router: inout Router) {
        router.add("GET", "/emulator/v1/projects/{project}/quotas") { request in
            ControlPlane.ok(Self.json(core.quotaLimits(project: request.pathParameters["project"] ?? "")))
        }
        router.add("PATCH", "/emulator/v1/projects/{project}/quotas") { request in update(request) }
    }

    private func update(_ request: HTTPRequest) -> HTTPResponse {
        let project = request.pathParameters["project"] ?? ""
        do throws(GoogleError) {
            let body = try JSONRequestBody(request, allowedKeys: Set(QuotaLimits.names.map(\.name)))
            var given: [(WritableKeyPath<QuotaLimits, Int?>, Int?)] = []
            for (name, keyPath) in QuotaLimits.names where body.has(name) {
                guard let value = try body.integer(name) else {
                    given.append((keyPath, nil))
                    continue
                }
                guard (1...Self.maximumLimit).contains(value) else {
                    let message = "\(name) must be a whole number from 1 to \(Self.maximumLimit), or null for no limit; got \(value)."
                    throw .invalidArgument(message, fieldViolations: [GoogleFieldViolation(field: name, description: message)])
                }
                given.append((keyPath, Int(value)))
            }
            // Merged under the limits' lock: two PATCHes at once each keep the other's change.
            let burstNamed = body.has("collapsibleBurst")
            let refillNamed = body.has("collapsibleRefillSeconds")
            guard let limits = core.updateQuotaLimits(project: project, { limits in
                for (keyPath, value) in given { limits[keyPath: keyPath] = value }
                limits.pairCollapsible(burstNamed: burstNamed, refillNamed: refillNamed)
            }) else {
                throw .invalidArgument(
                    "collapsibleBurst and collapsibleRefillSeconds go together: both numbers, or both null to turn collapsible-message throttling off.")
            }
            return ControlPlane.ok(Self.json(limits))
        } catch {
            return ControlPlane.error(error)
        }
    }

    /// The limits as the API shows them: every name, null where there is no limit.
    static func json(_ limits: QuotaLimits) -> JSONValue {
        .object(JSONObject(QuotaLimits.names.map { name, keyPath in
            JSONObject.Member(key: name, value: limits[keyPath: keyPath].map { .number(String($0)) } ?? .null)
        }))
    }
}
