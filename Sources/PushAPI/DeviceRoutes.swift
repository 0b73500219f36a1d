import ByteCoding
import HTTPServer
import PushCore

/// The simulated devices: `/emulator/v1/projects/{project}/devices...`.
struct DeviceRoutes {
    let core: PushEmulatorCore
    let streams: DeviceStreams
    let events: EventFeed
    /// Seconds between SSE heartbeat comments.
    let heartbeatSeconds: Int

    func register(in router: inout Router) {
        let base = "/emulator/v1/projects/{project}/devices"
        router.add("POST", base) { request in create(request) }
        router.add("GET", base) { request in list(request) }
        router.add("GET", base + "/{token}") { request in get(request) }
        router.add("PATCH", base + "/{token}") { request in patch(request) }
        router.add("DELETE", base + "/{token}") { request in uninstall(request) }
        router.add("POST", base + "/{token}:connect") { request in connect(request) }
        router.add("POST", base + "/{token}:reinstall") { request in reinstall(request) }
        router.add("GET", base + "/{token}:stream") { request in stream(request) }
    }

    private func create(_ request: HTTPRequest) -> HTTPResponse {
        let registration: DeviceRegistration
        do {
            let body = try JSONRequestBody(request, allowedKeys: Self.settingKeys.union(["platform", "apnsToken", "token"]))
            var platform = Platform.ios
            if let text = try body.string("platform") {
                guard let value = Platform(rawValue: text) else {
                    return ControlPlane.error(.invalidArgument("platform must be one of ios, android, web; got \"\(text)\"."))
                }
                platform = value
            }
            try Self.checkSettings(body, for: platform)
            let appState = try Self.appState(body) ?? .background
            registration = DeviceRegistration(
                platform: platform, bundleID: try body.string(Self.appIDKey(platform)), apnsToken: try body.string("apnsToken"),
                token: try body.string("token"), appState: appState,
                hasNotificationServiceExtension: try body.bool("notificationServiceExtension") ?? true,
                androidChannels: try body.strings("channels"), hasBackgroundHandler: try body.bool("backgroundHandler") ?? true,
                apnsEnvironment: try Self.apnsEnvironment(body), unregisterAfterSeconds: try Self.unregisterAfter(body))
        } catch {
            return ControlPlane.error(error)
        }
        switch core.registerDevice(project: project(request), registration) {
        case .success(let device):
            events.publish(.device(project: project(request), token: device.token, change: "registered"))
            return ControlPlane.ok(device.json, status: 201)
        case .failure(let error):
            switch error {
            case .tokenInUse, .apnsTokenInUse: return ControlPlane.error(.alreadyExists(error.message))
            case .counterExhausted(let exhausted): return ControlPlane.error(exhausted.googleError)
            default: return ControlPlane.error(.invalidArgument(error.message))
            }
        }
    }

    private func list(_ request: HTTPRequest) -> HTTPResponse {
        ControlPlane.listing {
            let page = try core.devices(project: project(request), page: try ControlPlane.page(request))
            return ControlPlane.list("devices", page) { $0.json }
        }
    }

    private func get(_ request: HTTPRequest) -> HTTPResponse {
        let token = self.token(request)
        switch core.device(project: project(request), token: token) {
        case .success(let device): return ControlPlane.ok(device.json)
        case .failure(let error): return ControlPlane.lookupError(error, token: token)
        }
    }

    private func patch(_ request: HTTPRequest) -> HTTPResponse {
        let token = self.token(request)
        let appState: AppState?
        let bundleID: String?
        let hasExtension: Bool?
        let channels: [String]??
        let hasBackgroundHandler: Bool?
        let environment: APNsEnvironment??
        let unregisterAfter: Int64??
        do {
            let body = try JSONRequestBody(request, allowedKeys: Self.settingKeys)
            appState = try Self.appState(body)
            // The platform decides which settings apply: an admin call, seldom made, may read the device twice.
            let platform: Platform
            switch core.device(project: project(request), token: token) {
            case .success(let device): platform = device.platform
            case .failure(let error): return ControlPlane.lookupError(error, token: token)
            }
            try Self.checkSettings(body, for: platform)
            bundleID = try body.string(Self.appIDKey(platform))
            if let bundleID, let problem = DeviceRegistration.appIDProblem(bundleID, platform: platform) {
                return ControlPlane.error(.invalidArgument(problem.message))
            }
            hasExtension = try body.bool("notificationServiceExtension")
            channels = body.has("channels") ? .some(try body.strings("channels")) : nil
            hasBackgroundHandler = try body.bool("backgroundHandler")
            environment = body.has("apnsEnvironment") ? .some(try Self.apnsEnvironment(body)) : nil
            unregisterAfter = body.has("unregisterAfter") ? .some(try Self.unregisterAfter(body)) : nil
        } catch {
            return ControlPlane.error(error)
        }
        switch core.updateDevice(
            project: project(request), token: token, appState: appState, bundleID: bundleID,
            hasNotificationServiceExtension: hasExtension, androidChannels: channels,
            hasBackgroundHandler: hasBackgroundHandler, apnsEnvironment: environment, unregisterAfterSeconds: unregisterAfter) {
        case .success(let device):
            events.publish(.device(project: project(request), token: token, change: "updated"))
            return ControlPlane.ok(device.json)
        case .failure(let error): return ControlPlane.lookupError(error, token: token)
        }
    }

    /// The app reinstalled: a new device (and FCM token) in the old one's place, which is
    /// uninstalled (docs/fcm.md, "Uninstalls and reinstalls").
    private func reinstall(_ request: HTTPRequest) -> HTTPResponse {
        let token = self.token(request)
        let project = self.project(request)
        switch core.reinstallDevice(project: project, token: token) {
        case .success(let device):
            streams.finish(project: project, token: token)
            events.publish(.device(project: project, token: token, change: "uninstalled"))
            events.publish(.device(project: project, token: device.token, change: "registered"))
            return ControlPlane.ok(device.json, status: 201)
        case .failure(.lookup(let error)): return ControlPlane.lookupError(error, token: token)
        case .failure(.counterExhausted(let exhausted)): return ControlPlane.error(exhausted.googleError)
        }
    }

    private func uninstall(_ request: HTTPRequest) -> HTTPResponse {
        let token = self.token(request)
        let project = self.project(request)
        switch core.uninstallDevice(project: project, token: token) {
        case .success:
            streams.finish(project: project, token: token)
            events.publish(.device(project: project, token: token, change: "uninstalled"))
            return ControlPlane.ok(.object(JSONObject()))
        case .failure(let error):
            return ControlPlane.lookupError(error, token: token)
        }
    }

    private func connect(_ request: HTTPRequest) -> HTTPResponse {
        let token = self.token(request)
        switch core.connect(project: project(request), token: token) {
        case .success(let received):
            if events.isWatched {
                events.publish(.device(project: project(request), token: token, change: "connected"))
                for event in FeedEvent.received(project: project(request), token: token, received) { events.publish(event) }
            }
            return ControlPlane.ok(["events": .array(received.map(\.json))])
        case .failure(let error): return ControlPlane.lookupError(error, token: token)
        }
    }

    /// Server-Sent Events: the connect rules first, then each delivery as it is sent, with a
    /// heartbeat comment so that proxies and clients see the connection is alive.
    private func stream(_ request: HTTPRequest) -> HTTPResponse {
        let token = self.token(request)
        let project = self.project(request)
        if case .failure(let error) = core.device(project: project, token: token) {
            return ControlPlane.lookupError(error, token: token)
        }
        guard streams.reserve(project: project, token: token) else {
            return ControlPlane.error(.resourceExhausted(
                "Device \(token) already has \(streams.limitPerDevice) open streams, the most one device may have "
                    + "(--max-streams-per-device); close one first."))
        }
        let core = self.core
        let streams = self.streams
        let heartbeat = heartbeatSeconds
        let events = self.events
        return HTTPResponse(status: 200, headers: ServerSentEvents.headers, body: .stream { stream in
            stream.write(": connected to \(token)\n\n")
            // A delivery counts as delivered once its event's bytes reach the socket.
            let attached = core.attachStream(project: project, token: token) { event, receipt in
                // What the feed is to be told once the event is sent, noted now without the event
                // itself (its payload), which a lagging reader's every unsent event would then hold
                // twice. Noted whether or not anybody watches yet: a read that starts waiting
                // meanwhile must be woken when the delivery is.
                let told = FeedEvent.Received(event)
                stream.write(Self.serverSentEvent(event)) { sent in
                    receipt.finish(sent: sent)
                    if sent { events.publish(told.event(project: project, token: token)) }
                }
            }
            switch attached {
            case .success(let deviceStream):
                streams.add(stream, project: project, token: token)
                events.publish(.device(project: project, token: token, change: "streamOpened"))
                stream.onClose {
                    deviceStream.close()
                    events.publish(.device(project: project, token: token, change: "streamClosed"))
                }
                ServerSentEvents.scheduleHeartbeat(stream, seconds: heartbeat)
            case .failure:
                streams.cancel(project: project, token: token)
                stream.write("event: error\ndata: {\"error\":\"the device is gone\"}\n\n")
                stream.finish()
            }
        })
    }

    static func serverSentEvent(_ event: DeviceEvent) -> [UInt8] {
        var bytes = Array("event: ".utf8)
        switch event {
        case .notification(let notification):
            bytes += "notification\nid: \(notification.id)\n".utf8
        case .messagesDeleted:
            bytes += "messagesDeleted\n".utf8
        }
        bytes += "data: ".utf8
        JSONSerializer.write(event.json, into: &bytes)
        bytes += "\n\n".utf8
        return bytes
    }

    /// The keys of a device's app id and settings, on every platform.
    private static let settingKeys: Set<String> = [
        "appState", "bundleId", "packageName", "origin", "notificationServiceExtension", "channels", "backgroundHandler",
        "apnsEnvironment", "unregisterAfter",
    ]

    /// The key of a platform's app id: `bundleId`, `packageName` or `origin`.
    private static func appIDKey(_ platform: Platform) -> String {
        switch platform {
        case .ios: "bundleId"
        case .android: "packageName"
        case .web: "origin"
        }
    }

    /// Refuses the app id keys and settings of other platforms: a setting that is accepted must
    /// do something.
    private static func checkSettings(_ body: JSONRequestBody, for platform: Platform) throws(GoogleError) {
        let own: [Platform: Set<String>] = [
            .ios: ["bundleId", "notificationServiceExtension", "apnsEnvironment"], .android: ["packageName", "channels"],
            .web: ["origin", "backgroundHandler"],
        ]
        for (other, keys) in own where other != platform {
            for key in keys.sorted() where body.has(key) {
                throw GoogleError.invalidArgument(
                    "\(key) is for \(other.rawValue) devices; this device's platform is \(platform.rawValue)"
                        + " (its app id is \(appIDKey(platform))).")
            }
        }
    }

    /// `unregisterAfter`: whole seconds from 0 to 100 years, or null for `--unregister-after`.
    private static func unregisterAfter(_ body: JSONRequestBody) throws(GoogleError) -> Int64? {
        guard let seconds = try body.integer("unregisterAfter") else { return nil }
        guard (0...Device.longestUnregisterAfter).contains(seconds) else {
            throw GoogleError.invalidArgument(
                "unregisterAfter must be seconds from 0 to \(Device.longestUnregisterAfter) (100 years), or null for --unregister-after; got \(seconds).")
        }
        return seconds
    }

    /// `apnsEnvironment`: `development`, `production`, or null for either.
    private static func apnsEnvironment(_ body: JSONRequestBody) throws(GoogleError) -> APNsEnvironment? {
        guard let text = try body.string("apnsEnvironment") else { return nil }
        guard let environment = APNsEnvironment(rawValue: text) else {
            throw GoogleError.invalidArgument("apnsEnvironment must be development, production or null (either); got \"\(text)\".")
        }
        return environment
    }

    private static func appState(_ body: JSONRequestBody) throws(GoogleError) -> AppState? {
        guard let text = try body.string("appState") else { return nil }
        guard let state = AppState(rawValue: text) else {
            throw GoogleError.invalidArgument("appState must be one of foreground, background, notRunning; got \"\(text)\".")
        }
        return state
    }

    private func project(_ request: HTTPRequest) -> String { request.pathParameters["project"] ?? "" }
    private func token(_ request: HTTPRequest) -> String { request.pathParameters["token"] ?? "" }
}
