import PushCore
import XCTest

/// The subscription store behind the v1 topic API and the Instance ID API, and topic sends.
final class TopicSubscriptionTests: XCTestCase {
    func testSubscribeCreatesTheTopicAndAnswersAlreadySubscribedTheSecondTime() throws {
        let core = makeCore()
        register(core)
        let subscription = try core.subscribe(project: "demo", registration: "device-1", topic: "news").get()
        XCTAssertEqual(subscription.name(project: "demo"), "projects/demo/registrations/device-1/topicSubscriptions/news")
        XCTAssertEqual(subscription.createdAt, Timestamp(millisecondsSinceEpoch: fixedWallTime))
        XCTAssertEqual(core.subscribe(project: "demo", registration: "device-1", topic: "news").failure, .alreadySubscribed(subscription))
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().topics, ["news"])
        let topics = try core.topics(project: "demo").items
        XCTAssertEqual(topics.map(\.name), ["news"])
        XCTAssertEqual(topics.map(\.subscriberCount), [1])
    }

    func testRegistrationErrorsDependOnTheTokenMode() {
        let strict = makeCore(PushCoreConfiguration(tokenMode: .strict))
        XCTAssertEqual(strict.subscribe(project: "demo", registration: "unknown:APA91b", topic: "news").failure, .registrationNotFound)
        XCTAssertEqual(strict.subscribe(project: "demo", registration: "bad token", topic: "news").failure, .malformedRegistration)
        let lenient = makeCore()
        XCTAssertNoThrow(try lenient.subscribe(project: "demo", registration: "unknown:APA91b", topic: "news").get())
        XCTAssertEqual(try lenient.device(project: "demo", token: "unknown:APA91b").get().topics, ["news"])
        XCTAssertEqual(lenient.subscribe(project: "demo", registration: "bad token", topic: "news").failure, .malformedRegistration)
        XCTAssertEqual(lenient.subscribe(project: "demo", registration: "unknown:APA91b", topic: "/topics/news").failure,
                       .invalidTopicName("/topics/news"))
        XCTAssertEqual(lenient.subscribe(project: "demo", registration: "unknown:APA91b", topic: String(repeating: "a", count: 901)).failure,
                       .invalidTopicName(String(repeating: "a", count: 901)))
        XCTAssertNoThrow(try lenient.subscribe(project: "demo", registration: "unknown:APA91b", topic: String(repeating: "a", count: 900)).get())
    }

    func testUninstalledDevicesLoseTheirSubscriptionsAndAreNotFound() throws {
        let core = makeCore()
        register(core)
        _ = try core.subscribe(project: "demo", registration: "device-1", topic: "news").get()
        try core.uninstallDevice(project: "demo", token: "device-1").get()
        XCTAssertEqual(try core.topics(project: "demo").items.map(\.subscriberCount), [0])
        guard case .uninstalled = core.subscribe(project: "demo", registration: "device-1", topic: "news").failure else {
            return XCTFail("an uninstalled token must not be registered again by a subscription")
        }
        XCTAssertEqual(sendFCM(core, to: .topic("news")).sent?.deliveries(in: core).count, 0)
    }

    func testUnsubscribeAndLookups() throws {
        let core = makeCore()
        register(core)
        XCTAssertEqual(core.unsubscribe(project: "demo", registration: "device-1", topic: "news").failure, .notSubscribed)
        XCTAssertEqual(core.subscription(project: "demo", registration: "device-1", topic: "news").failure, .notSubscribed)
        _ = try core.subscribe(project: "demo", registration: "device-1", topic: "news").get()
        _ = try core.subscribe(project: "demo", registration: "device-1", topic: "sports").get()
        XCTAssertEqual(try core.subscriptions(project: "demo", registration: "device-1").get().map(\.topic), ["news", "sports"])
        XCTAssertEqual(try core.subscription(project: "demo", registration: "device-1", topic: "sports").get().topic, "sports")
        try core.unsubscribe(project: "demo", registration: "device-1", topic: "news").get()
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().topics, ["sports"])
        XCTAssertEqual(core.subscriptions(project: "demo", registration: "nobody:APA91b").failure, .registrationNotFound)
        XCTAssertEqual(core.unsubscribe(project: "elsewhere", registration: "nobody:APA91b", topic: "news").failure, .registrationNotFound)
    }

    func testADeviceHoldsAtMost2000Topics() throws {
        let core = makeCore()
        register(core)
        for index in 0..<TopicLimits.maximumTopicsPerDevice {
            _ = try core.subscribe(project: "demo", registration: "device-1", topic: "t\(index)").get()
        }
        XCTAssertEqual(core.subscribe(project: "demo", registration: "device-1", topic: "one-more").failure, .tooManyTopics)
        XCTAssertEqual(core.batchSubscription(tokens: ["device-1"], topic: "one-more", subscribe: true), [.tooManyTopics])
    }

    func testInstanceIDBatchesFindEachTokensProjectAndReportPerToken() throws {
        let core = makeCore()
        register(core, token: "a-1", project: "one")
        register(core, token: "b-1", project: "two")
        let results = core.batchSubscription(tokens: ["a-1", "unknown", "bad token", "b-1", "a-1"], topic: "news", subscribe: true)
        XCTAssertEqual(results, [nil, .registrationNotFound, .malformedRegistration, nil, nil])
        XCTAssertEqual(results.map { $0?.instanceIDCode }, [nil, "NOT_FOUND", "INVALID_ARGUMENT", nil, nil])
        XCTAssertEqual(try core.subscriptions(project: "one", registration: "a-1").get().map(\.topic), ["news"])
        XCTAssertEqual(try core.subscriptions(project: "two", registration: "b-1").get().map(\.topic), ["news"])
        XCTAssertEqual(try core.instance(token: "b-1").get().project, "two")
        XCTAssertEqual(core.batchSubscription(tokens: ["a-1", "b-1"], topic: "news", subscribe: false), [nil, nil])
        XCTAssertEqual(core.batchSubscription(tokens: ["a-1"], topic: "news", subscribe: false), [nil])
        XCTAssertEqual(try core.topics(project: "one").items.map(\.subscriberCount), [0])
    }

    func testATopicSendReachesExactlyTheSubscribersInRegistrationOrder() throws {
        let core = makeCore()
        for token in ["d-1", "d-2", "d-3", "d-4"] { register(core, token: token) }
        for token in ["d-4", "d-2", "d-1"] { _ = try core.subscribe(project: "demo", registration: token, topic: "news") .get() }
        try core.unsubscribe(project: "demo", registration: "d-1", topic: "news").get()
        let sent = try XCTUnwrap(sendFCM(core, to: .topic("news")).sent)
        XCTAssertEqual(sent.deliveries(in: core).map(\.token), ["d-2", "d-4"])
        XCTAssertEqual(sendFCM(core, to: .topic("nobody-listens")).sent?.deliveries(in: core).count, 0)
    }
}

/// Condition sends: the evaluator applied to every device of the project.
final class ConditionSendTests: XCTestCase {
    func testAConditionSendReachesExactlyTheMatchingDevices() throws {
        let core = makeCore()
        let subscriptions: [(String, [String])] = [("none", []), ("a", ["a"]), ("ab", ["a", "b"]), ("c", ["c"]), ("bc", ["b", "c"])]
        for (token, topics) in subscriptions {
            register(core, token: token)
            for topic in topics { _ = try core.subscribe(project: "demo", registration: token, topic: topic).get() }
        }
        func reached(_ condition: String) -> [String] {
            sendFCM(core, to: .condition(condition)).sent?.deliveries(in: core).map(\.token) ?? []
        }
        XCTAssertEqual(reached("'a' in topics"), ["a", "ab"])
        XCTAssertEqual(reached("'a' in topics && 'b' in topics"), ["ab"])
        XCTAssertEqual(reached("!('a' in topics)"), ["none", "c", "bc"])
        // Left to right: ('a' || 'b') && 'c' — C-style precedence would also pick "a" and "ab".
        XCTAssertEqual(reached("'a' in topics || 'b' in topics && 'c' in topics"), ["bc"])
        XCTAssertEqual(reached("'a' in topics || ('b' in topics && 'c' in topics)"), ["a", "ab", "bc"])
        XCTAssertEqual(reached("'zzz' in topics"), [])
    }

    func testTheLogsTopicFilterMatchesConditionsNamingTheTopic() throws {
        let core = makeCore()
        register(core)
        sendFCM(core, to: .condition("'news' in topics || 'sports' in topics"))
        sendFCM(core, to: .topic("news"))
        sendFCM(core, to: .topic("weather"))
        let targets = try core.messages(project: "demo", filter: MessageLogFilter(topic: "news")).items.map(\.target)
        XCTAssertEqual(targets, [.topic("news"), .condition("'news' in topics || 'sports' in topics")])
        XCTAssertEqual(targets.map(\.json).last, obj(("condition", str("'news' in topics || 'sports' in topics"))))
    }
}
