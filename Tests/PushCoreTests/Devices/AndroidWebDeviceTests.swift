import ByteCoding
import PushCore
import XCTest

/// Android and web devices end to end through the core: what a send stores for each, and the
/// queue rules of docs/android.md and docs/web.md (time to live, collapse keys, deletions).
final class AndroidWebDeviceTests: XCTestCase {
    private func registerAndroid(
        _ core: PushEmulatorCore, token: String = "android-1", package: String = "com.example.app",
        appState: AppState = .background, channels: [String]? = nil
    ) {
        _ = try! core.registerDevice(
            project: "demo",
            DeviceRegistration(platform: .android, bundleID: package, token: token, appState: appState, androidChannels: channels)
        ).get()
    }

    private func registerWeb(_ core: PushEmulatorCore, token: String = "web-1", backgroundHandler: Bool = true) {
        _ = try! core.registerDevice(
            project: "demo",
            DeviceRegistration(platform: .web, token: token, hasBackgroundHandler: backgroundHandler)
        ).get()
    }

    @discardableResult
    private func send(_ core: PushEmulatorCore, _ json: String) -> SendOutcome<GoogleError> {
        let body = Array(json.utf8)
        return core.send(project: "demo", message: try! FCMSendRequest(body: body).message, requestBody: body)
    }

    private func deliveries(_ core: PushEmulatorCore, _ outcome: SendOutcome<GoogleError>) -> [Delivery] {
        guard case .accepted(let sent) = outcome else {
            XCTFail("not accepted: \(outcome)")
            return []
        }
        return sent.deliveryNumbers.compactMap { core.delivery(project: "demo", id: "d-\($0)") }
    }

    private func events(_ core: PushEmulatorCore, _ token: String) -> [DeviceEvent] {
        try! core.connect(project: "demo", token: token).get()
    }

    func testAnAndroidDeviceGetsTheExtrasAndTheRemoteMessage() throws {
        let core = makeCore()
        registerAndroid(core)
        let outcome = send(core, #"{"message":{"token":"android-1","notification":{"title":"Hi"},"data":{"k":"v"}}}"#)
        let delivery = try XCTUnwrap(deliveries(core, outcome).first)
        guard case .android(let message, _)? = delivery.platformMessage else { return XCTFail("no Android message") }
        let extras = Dictionary(uniqueKeysWithValues: message.extras.map { ($0.key, $0.value) })
        XCTAssertEqual(extras["gcm.notification.title"], "Hi")
        XCTAssertEqual(extras["k"], "v")
        XCTAssertEqual(extras["collapse_key"], "com.example.app")
        XCTAssertEqual(extras["google.c.sender.id"], core.senderID(forProject: "demo"))
        XCTAssertEqual(extras["google.message_id"], delivery.messageName.messageID)
        let json = delivery.json
        XCTAssertNotNil(json["extras"]?.objectValue)
        XCTAssertEqual(json["remoteMessage"]?["notification"]?["title"], .string("Hi"))
        XCTAssertNil(json["headers"])
        XCTAssertEqual(json["presentation"]?["shown"], .bool(true))
        // A connect hands over the same shapes.
        guard case .notification(let event)? = events(core, "android-1").first else { return XCTFail("no event") }
        XCTAssertEqual(event.json["remoteMessage"], json["remoteMessage"])
        XCTAssertEqual(event.json["extras"], json["extras"])
    }

    func testAWebDeviceGetsThePushDataAndTheMessagePayload() throws {
        let core = makeCore()
        registerWeb(core, backgroundHandler: false)
        let outcome = send(core, #"{"message":{"token":"web-1","data":{"k":"v"},"webpush":{"headers":{"TTL":"60"}}}}"#)
        let delivery = try XCTUnwrap(deliveries(core, outcome).first)
        XCTAssertEqual(delivery.expiresAt, delivery.enqueuedAt.adding(seconds: 60))
        let json = delivery.json
        XCTAssertEqual(json["pushData"]?["data"]?["k"], .string("v"))
        XCTAssertEqual(json["messagePayload"]?["messageId"], .string(delivery.messageName.messageID))
        XCTAssertEqual(json["presentation"]?["warnings"]?.arrayValue?.first?["code"], .string("backgroundDataWithoutHandler"))
        XCTAssertEqual(try core.device(project: "demo", token: "web-1").get().bundleID, "https://localhost")
    }

    func testTTLZeroIsNowOrNeverAndTheTTLExpires() throws {
        let core = makeCore()
        registerAndroid(core)
        let dropped = try XCTUnwrap(deliveries(core, send(core, #"{"message":{"token":"android-1","data":{"a":"1"},"android":{"ttl":"0s"}}}"#)).first)
        XCTAssertEqual(dropped.state, .dropped)
        let kept = try XCTUnwrap(deliveries(core, send(core, #"{"message":{"token":"android-1","data":{"a":"2"},"android":{"ttl":"100s"}}}"#)).first)
        XCTAssertEqual(kept.state, .pending)
        _ = core.advanceClock(seconds: 101)
        XCTAssertEqual(core.delivery(project: "demo", id: kept.id)?.state, .expired)
        XCTAssertEqual(events(core, "android-1"), [])
    }

    func testNotificationMessagesCollapseUnderThePackage() throws {
        let core = makeCore()
        registerAndroid(core)
        let first = deliveries(core, send(core, #"{"message":{"token":"android-1","notification":{"title":"1"},"android":{"collapse_key":"x"}}}"#))
        let second = deliveries(core, send(core, #"{"message":{"token":"android-1","notification":{"title":"2"}}}"#))
        XCTAssertEqual(core.delivery(project: "demo", id: first[0].id)?.state, .collapsed)
        XCTAssertEqual(second[0].collapseID, "com.example.app")
        XCTAssertEqual(events(core, "android-1").count, 1)
    }

    func testFiveDataCollapseKeysKeepTheFourMostRecent() throws {
        let core = makeCore()
        registerAndroid(core)
        var ids: [String: String] = [:]
        for key in ["a", "b", "c", "a", "d", "e"] {
            let made = deliveries(core, send(core, #"{"message":{"token":"android-1","data":{"k":"\#(key)"},"android":{"collapse_key":"\#(key)"}}}"#))
            ids[key] = made[0].id
        }
        // "b" was used least recently when "e" came: it goes; "a" was sent again after it.
        XCTAssertEqual(core.delivery(project: "demo", id: ids["b"]!)?.state, .collapsed)
        let received = events(core, "android-1").compactMap { event -> String? in
            guard case .notification(let notification) = event else { return nil }
            return notification.json["extras"]?["collapse_key"]?.stringValue
        }
        XCTAssertEqual(received, ["c", "a", "d", "e"])
    }

    func testMoreThanAHundredPendingAreDeletedForAndroidButNotForTheWeb() throws {
        let core = makeCore()
        registerAndroid(core)
        registerWeb(core)
        for index in 0..<101 {
            send(core, #"{"message":{"token":"android-1","data":{"n":"\#(index)"}}}"#)
            send(core, #"{"message":{"token":"web-1","data":{"n":"\#(index)"}}}"#)
        }
        XCTAssertEqual(events(core, "android-1"), [.messagesDeleted(reason: .tooManyPending, count: 101)])
        XCTAssertEqual(events(core, "web-1").count, 101)
    }

    func testRestrictedPackageNameRefusesATokenSendAndSkipsOnAFanOut() throws {
        let core = makeCore()
        registerAndroid(core, token: "android-1", package: "com.example.app")
        registerAndroid(core, token: "android-2", package: "com.example.other")
        let refused = send(core, #"{"message":{"token":"android-1","data":{"a":"1"},"android":{"restricted_package_name":"com.example.other"}}}"#)
        guard case .rejected(let error) = refused else { return XCTFail("not refused: \(refused)") }
        XCTAssertEqual(error.status, .invalidArgument)
        XCTAssertTrue(error.message.hasPrefix("Invalid package name"), error.message)
        for token in ["android-1", "android-2"] { _ = core.subscribe(project: "demo", registration: token, topic: "news") }
        let fanned = deliveries(core, send(core, #"{"message":{"topic":"news","data":{"a":"1"},"android":{"restricted_package_name":"com.example.other"}}}"#))
        XCTAssertEqual(fanned.map(\.token), ["android-2"])
        XCTAssertEqual(fanned.first?.json["extras"]?["from"], .string("/topics/news"))
    }

    func testAConditionSendGivesEachPlatformItsOwnShape() throws {
        let core = makeCore()
        register(core, token: "ios-1")
        registerAndroid(core)
        registerWeb(core)
        for token in ["ios-1", "android-1", "web-1"] { _ = core.subscribe(project: "demo", registration: token, topic: "news") }
        let made = deliveries(core, send(core, #"{"message":{"condition":"'news' in topics","notification":{"title":"T"}}}"#))
        let byToken = Dictionary(uniqueKeysWithValues: made.map { ($0.token, $0.json) })
        XCTAssertEqual(byToken["ios-1"]?["payload"]?["aps"]?["alert"]?["title"], .string("T"))
        XCTAssertEqual(byToken["android-1"]?["remoteMessage"]?["notification"]?["title"], .string("T"))
        XCTAssertEqual(byToken["web-1"]?["messagePayload"]?["notification"]?["title"], .string("T"))
    }

    func testRegistrationChecksTheAppIDAndRefusesAnAPNsToken() {
        let core = makeCore()
        let cases: [(DeviceRegistration, DeviceRegistrationError)] = [
            (DeviceRegistration(platform: .android, apnsToken: "ab12"), .apnsTokenNotApple(.android)),
            (DeviceRegistration(platform: .android, bundleID: "nodots"), .malformedPackageName("nodots")),
            (DeviceRegistration(platform: .android, bundleID: "com.1bad"), .malformedPackageName("com.1bad")),
            (DeviceRegistration(platform: .web, bundleID: "https://shop.example/path"), .malformedOrigin("https://shop.example/path")),
            (DeviceRegistration(platform: .web, bundleID: "ftp://shop.example"), .malformedOrigin("ftp://shop.example")),
            (DeviceRegistration(platform: .web, bundleID: "http://h:99999"), .malformedOrigin("http://h:99999")),
        ]
        for (registration, error) in cases {
            XCTAssertEqual(core.registerDevice(project: "demo", registration).failure, error)
        }
        for origin in ["https://shop.example", "http://localhost:5000", "http://[::1]:8080", "https://a-b.example"] {
            XCTAssertNil(core.registerDevice(project: "demo", DeviceRegistration(platform: .web, bundleID: origin)).failure, origin)
        }
    }

    func testASnapshotKeepsAndroidAndWebDevicesAndTheirMessages() throws {
        let core = makeCore()
        registerAndroid(core, channels: ["scores"])
        registerWeb(core, backgroundHandler: false)
        send(core, #"{"message":{"token":"android-1","notification":{"title":"Hi"},"android":{"notification":{"channel_id":"x"}}}}"#)
        send(core, #"{"message":{"token":"web-1","data":{"k":"v"},"webpush":{"headers":{"TTL":"60","Topic":"t"}}}}"#)
        let snapshot = core.exportState()
        let restored = makeCore()
        try restored.importState(snapshot)
        XCTAssertEqual(
            JSONSerializer.serializeToString(restored.exportState()), JSONSerializer.serializeToString(snapshot))
        let android = try restored.device(project: "demo", token: "android-1").get()
        XCTAssertEqual(android.androidChannels, ["scores"])
        XCTAssertEqual(try restored.device(project: "demo", token: "web-1").get().hasBackgroundHandler, false)
        let delivered = events(restored, "android-1")
        guard case .notification(let event)? = delivered.first else { return XCTFail("nothing delivered") }
        XCTAssertEqual(event.json["presentation"]?["warnings"]?.arrayValue?.first?["code"], .string("channelNotCreated"))
    }

    func testAMessageOverFourKilobytesIsRefusedForAndroidAndWeb() {
        let core = makeCore()
        registerAndroid(core)
        registerWeb(core)
        let big = String(repeating: "x", count: 4100)
        for token in ["android-1", "web-1"] {
            let outcome = send(core, #"{"message":{"token":"\#(token)","data":{"k":"\#(big)"}}}"#)
            guard case .rejected(let error) = outcome else { return XCTFail("\(token) not refused: \(outcome)") }
            XCTAssertTrue(error.message.hasPrefix("Message is too big"), error.message)
        }
        let fits = String(repeating: "x", count: 4000)
        XCTAssertNotNil(send(core, #"{"message":{"token":"android-1","data":{"k":"\#(fits)"}}}"#).sent)
    }

    func testTheWebTTLHeaderMustBeSecondsInRange() {
        for (value, valid) in [("0", true), ("2419200", true), ("-1", false), ("1.5", false), ("abc", false), ("2419201", false)] {
            let body = Array(#"{"message":{"token":"t","data":{"a":"b"},"webpush":{"headers":{"TTL":"\#(value)"}}}}"#.utf8)
            XCTAssertEqual((try? FCMSendRequest(body: body)) != nil, valid, value)
        }
    }

    func testImportRefusesADeliveryOfAnotherPlatformOrOrigin() throws {
        let core = makeCore()
        registerAndroid(core)
        send(core, #"{"message":{"token":"android-1","data":{"a":"1"}}}"#)
        let snapshot = core.exportState()
        func refused(_ change: (inout JSONValue) -> Void, _ words: String) {
            var changed = snapshot
            change(&changed)
            XCTAssertThrowsError(try makeCore().importState(changed), words) { error in
                XCTAssertTrue("\(error)".contains(words), "\(error)")
            }
        }
        refused({ $0.set(["projects", 0, "devices", 0, "platform"], .string("ios")) }, "is a android message")
        refused({ $0.set(["projects", 0, "deliveries", 0, "origin"], .string("apns")) }, "comes from FCM")
        refused({
            $0.set(["projects", 0, "deliveries", 0, "web"], obj(("pushData", obj()), ("ttlSeconds", num(1)),
                ("topic", .null), ("origin", str("https://a.example")), ("backgroundHandler", .bool(true))))
        }, "not both")
    }

    func testOriginsAndPackageNamesAtTheirEdges() {
        let core = makeCore()
        for (origin, valid) in [
            ("https://a.example:1", true), ("https://a.example:65535", true), ("https://a.example:65536", false),
            ("https://a.example:080", false), ("https://a.example:0", false), ("https://[", false), ("https://[]", false),
            ("http://", false), ("https://h:", false), ("https://a.example/", false),
        ] {
            let registered = core.registerDevice(project: "demo", DeviceRegistration(platform: .web, bundleID: origin))
            XCTAssertEqual((try? registered.get()) != nil, valid, origin)
        }
        for (package, valid) in [("a.b", true), ("a_1.b2", true), ("a", false), ("a..b", false), (".a.b", false), ("a.b-c", false), ("é.b", false)] {
            let registered = core.registerDevice(project: "demo", DeviceRegistration(platform: .android, bundleID: package))
            XCTAssertEqual((try? registered.get()) != nil, valid, package)
        }
    }

    func testSettingsChangeWithAPatch() throws {
        let core = makeCore()
        registerAndroid(core, channels: ["a"])
        registerWeb(core)
        XCTAssertEqual(try core.updateDevice(project: "demo", token: "android-1", androidChannels: .some(nil)).get().androidChannels, nil)
        XCTAssertEqual(try core.updateDevice(project: "demo", token: "android-1", androidChannels: .some(["b"])).get().androidChannels, ["b"])
        XCTAssertEqual(try core.updateDevice(project: "demo", token: "web-1", hasBackgroundHandler: false).get().hasBackgroundHandler, false)
        XCTAssertEqual(try core.updateDevice(project: "demo", token: "web-1", bundleID: "https://b.example").get().bundleID, "https://b.example")
    }
}

