import ByteCoding
import HTTPServer
import PushCore

/// The legacy Instance ID topic API (`iid.googleapis.com`): batch add/remove, one relation,
/// and instance info. Its errors are `{"error": "<CODE>"}`; the emulator adds a `message`
/// member that says what was wrong (clients read only `error`).
struct InstanceIDRoutes {
    let core: PushEmulatorCore
    let auth: RequestAuthenticator

    func register(in router: inout Router) {
        router.add("POST", "/iid/v1:batchAdd") { request in authorized(request) { batch($0, subscribe: true) } }
        router.add("POST", "/iid/v1:batchRemove") { request in authorized(request) { batch($0, subscribe: false) } }
        router.add("POST", "/iid/v1/{token}/rel/topics/{topic}") { request in authorized(request, relate) }
        router.add("GET", "/iid/info/{token}") { request in authorized(request, info) }
    }

    /// `{"error": code, "message": message}`.
    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        .json(status, JSONSerializer.serialize(["error": .string(code), "message": .string(message)]))
    }

    private func authorized(_ request: HTTPRequest, _ handler: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        guard let rejection = auth.reject(request) else { return handler(request) }
        // The Instance ID API's own error shape, with the status and challenge of Google's answer.
        var response =
            rejection.status == 403
            ? Self.error(403, "PERMISSION_DENIED", "The access token lacks the firebase.messaging or cloud-platform scope.")
            : Self.error(401, "UNAUTHENTICATED", "Send Authorization: Bearer <OAuth 2.0 access token>.")
        if let challenge = rejection.headers["www-authenticate"] { response.headers.set("www-authenticate", challenge) }
        return response
    }

    private func batch(_ request: HTTPRequest, subscribe: Bool) -> HTTPResponse {
        let object: JSONObject
        switch (try? JSONParser.parse(request.body)) {
        case .object(let value)?: object = value
        default: return Self.error(400, "INVALID_ARGUMENT", "The body must be a JSON object {\"to\": \"/topics/<name>\", \"registration_tokens\": [...]}.")
        }
        guard case .string(let to)? = object["to"] else {
            return Self.error(400, "INVALID_ARGUMENT", "\"to\" is missing: give the topic as \"/topics/<name>\".")
        }
        guard to.hasPrefix("/topics/"), TopicLimits.isValidName(String(to.dropFirst("/topics/".count))) else {
            return Self.error(
                400, "INVALID_ARGUMENT",
                "Invalid \"to\" \"\(to)\": write \"/topics/<name>\" with a name of the characters a-z A-Z 0-9 - _ . ~ %.")
        }
        guard case .array(let values)? = object["registration_tokens"], !values.isEmpty else {
            return Self.error(400, "INVALID_ARGUMENT", "\"registration_tokens\" must be a non-empty array of tokens.")
        }
        guard values.count <= TopicLimits.maximumBatchSize else {
            return Self.error(
                400, "INVALID_ARGUMENT",
                "\"registration_tokens\" has \(values.count) tokens; at most \(TopicLimits.maximumBatchSize) are allowed per request.")
        }
        var tokens = [String]()
        for value in values {
            guard case .string(let token) = value else {
                return Self.error(400, "INVALID_ARGUMENT", "\"registration_tokens\" must hold strings only; found \(value.jsonString).")
            }
            tokens.append(token)
        }
        let results = core.batchSubscription(tokens: tokens, topic: String(to.dropFirst("/topics/".count)), subscribe: subscribe)
        let json = results.map { error -> JSONValue in
            error.map { ["error": .string($0.instanceIDCode)] } ?? .object(JSONObject())
        }
        return ControlPlane.ok(["results": .array(json)])
    }

    private func relate(_ request: HTTPRequest) -> HTTPResponse {
        let token = request.pathParameters["token"] ?? ""
        let topic = request.pathParameters["topic"] ?? ""
        guard let error = core.batchSubscription(tokens: [token], topic: topic, subscribe: true)[0] else {
            return ControlPlane.ok(.object(JSONObject()))
        }
        let status = switch error {
        case .registrationNotFound, .uninstalled: 404
        case .counterExhausted: 500
        case .quotaExceeded: 429
        default: 400
        }
        return Self.error(status, error.instanceIDCode, error.message)
    }

    private func info(_ request: HTTPRequest) -> HTTPResponse {
        let token = request.pathParameters["token"] ?? ""
        guard case .success(let (project, device)) = core.instance(token: token) else {
            return Self.error(404, "No information found about this instance id.", "No device has this registration token.")
        }
        var object = JSONObject()
        object["application"] = .string(device.bundleID)
        object["authorizedEntity"] = .string(core.senderID(forProject: project))
        object["platform"] = .string(Self.platformName(device.platform))
        if request.queryItem("details") == "true" {
            var topics = JSONObject()
            for subscription in device.subscriptions.values.sorted(by: { $0.topic < $1.topic }) {
                topics[subscription.topic] = ["addDate": .string(String(subscription.createdAt.rfc3339.prefix(10)))]
            }
            object["rel"] = ["topics": .object(topics)]
        }
        return ControlPlane.ok(.object(object))
    }

    private static func platformName(_ platform: Platform) -> String {
        switch platform {
        case .ios: "IOS"
        case .android: "ANDROID"
        case .web: "WEBPUSH"
        }
    }
}
