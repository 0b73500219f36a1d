import ByteCoding
import PushCore
import XCTest

/// Reads of a project with a long queue cost what they return, not what is queued: a device read
/// and a message-log page (unfiltered, or filtered by token or topic) take about as long with 4n
/// messages queued as with n (within 5x), and so does a read that expires a few deliveries among
/// many that do not expire.
final class QueueReadCostTests: XCTestCase {
    /// Queued messages at the first measurement: enough that a read over all of them takes
    /// milliseconds in the debug build, few enough that queueing 16n stays quick.
    let n = 20_000
    /// The queue is spread over this many offline devices.
    let deviceCount = 50

    /// One notification for every send: the test measures the queue, not the conversion.
    let notification = APNsNotification(headers: [HeaderField("apns-push-type", "alert")], payload: JSONObject())

    /// Time of one device read and one message-log page (of 10, from a page token in the middle
    /// of the log), each the fastest of several rounds: the ratio compares costs, not noise.
    func testDeviceReadAndLogPageCostDoNotGrowWithTheQueue() throws {
        let core = makeCore()
        for device in 0..<deviceCount { register(core, token: "device-\(device)") }
        var queued = 0
        func queue(upTo total: Int) {
            while queued < total {
                send(core, to: "device-\(queued % deviceCount)")
                queued += 1
            }
        }
        func costs() throws -> (device: Duration, page: Duration) {
            let device = fastest { _ = try? core.device(project: "demo", token: "device-7").get() }
            let middle = PageRequest(size: 10, token: String(queued / 2))
            XCTAssertEqual(try core.messages(project: "demo", page: middle).items.count, 10)
            let page = fastest { _ = try? core.messages(project: "demo", page: middle) }
            return (device, page)
        }
        queue(upTo: n)
        let atN = try costs()
        queue(upTo: 4 * n)
        let at4N = try costs()
        // Where a read over the whole queue would be 16 times slower, not just 4 (which a cost
        // linear in the queue would still fit within 5x).
        queue(upTo: 16 * n)
        let at16N = try costs()
        print("device read: \(atN.device) at n=\(n), \(at4N.device) at 4n, \(at16N.device) at 16n")
        print("log page: \(atN.page) at n=\(n), \(at4N.page) at 4n, \(at16N.page) at 16n")
        XCTAssertEqual(try core.device(project: "demo", token: "device-7").get().pendingCount, 16 * n / deviceCount)
        XCTAssertLessThan(at4N.device, atN.device * 5, "device read at 4n")
        XCTAssertLessThan(at4N.page, atN.page * 5, "log page at 4n")
        XCTAssertLessThan(at16N.device, atN.device * 5, "device read at 16n")
        XCTAssertLessThan(at16N.page, atN.page * 5, "log page at 16n")
    }

    /// A page of the message log filtered by token, or by topic, costs the same with n or 4n
    /// (or 16n) newer messages to other devices: the filtered messages are the oldest, so a
    /// page that read the log until it found them would read every newer message first.
    func testTokenAndTopicFilteredPagesCostWhatTheyReturn() throws {
        let core = makeCore()
        register(core, token: "oldest")
        _ = try core.subscribe(project: "demo", registration: "oldest", topic: "news").get()
        for device in 0..<deviceCount { register(core, token: "device-\(device)") }
        // 30 messages to the oldest device by its token, 30 by the topic (the second page of
        // each filter starts among them).
        for _ in 0..<30 {
            send(core, to: .token("oldest"))
            send(core, to: .topic("news"))
        }
        var queued = 0
        func queue(upTo total: Int) {
            while queued < total {
                send(core, to: .token("device-\(queued % deviceCount)"))
                queued += 1
            }
        }
        /// The first and the second page of 10 of each filter.
        func costs() throws -> (token: Duration, topic: Duration) {
            func pagesCost(_ filter: MessageLogFilter) throws -> Duration {
                let first = try core.messages(project: "demo", filter: filter, page: PageRequest(size: 10))
                let second = PageRequest(size: 10, token: first.nextPageToken)
                XCTAssertEqual(first.items.count, 10)
                XCTAssertEqual(try core.messages(project: "demo", filter: filter, page: second).items.count, 10)
                return fastest {
                    _ = try? core.messages(project: "demo", filter: filter, page: PageRequest(size: 10))
                    _ = try? core.messages(project: "demo", filter: filter, page: second)
                }
            }
            return (try pagesCost(MessageLogFilter(token: "oldest")), try pagesCost(MessageLogFilter(topic: "news")))
        }
        queue(upTo: n)
        let atN = try costs()
        queue(upTo: 4 * n)
        let at4N = try costs()
        // Where a read of every newer message would be 16 times slower, not just 4 (which a cost
        // linear in the log would still fit within 5x).
        queue(upTo: 16 * n)
        let at16N = try costs()
        print("token-filtered pages: \(atN.token) at n=\(n), \(at4N.token) at 4n, \(at16N.token) at 16n")
        print("topic-filtered pages: \(atN.topic) at n=\(n), \(at4N.topic) at 4n, \(at16N.topic) at 16n")
        let everything = try core.messages(project: "demo", filter: MessageLogFilter(token: "oldest"), page: PageRequest(size: 100))
        XCTAssertEqual(everything.items.count, 60)
        XCTAssertNil(everything.nextPageToken)
        XCTAssertLessThan(at4N.token, atN.token * 5, "token-filtered pages at 4n")
        XCTAssertLessThan(at4N.topic, atN.topic * 5, "topic-filtered pages at 4n")
        XCTAssertLessThan(at16N.token, atN.token * 5, "token-filtered pages at 16n")
        XCTAssertLessThan(at16N.topic, atN.topic * 5, "topic-filtered pages at 16n")
    }

    /// A read that expires a few deliveries costs the same with n or 4n others queued that do
    /// not expire; the expired ones are expired, the others still pending.
    func testExpiringAFewAmongManyCostsWhatExpires() throws {
        let core = makeCore()
        for device in 0..<deviceCount { register(core, token: "device-\(device)") }
        var queued = 0
        var expiring = 0
        func queue(upTo total: Int) {
            while queued < total {
                send(core, to: "device-\(queued % deviceCount)")
                queued += 1
            }
        }
        /// Each round queues 5 deliveries that expire in a second, moves the clock 2 s on, and
        /// times the read that expires them.
        func expiryCost() throws -> Duration {
            var best = Duration.seconds(3600)
            for _ in 0..<7 {
                let now = core.now.secondsSinceEpoch
                for index in 0..<5 {
                    send(core, to: "device-\(index)", expiringAt: now + 1)
                    expiring += 1
                }
                core.advanceClock(seconds: 2)
                let clock = ContinuousClock()
                let start = clock.now
                _ = try core.device(project: "demo", token: "device-7").get()
                best = min(best, clock.now - start)
            }
            let expired = try core.messages(project: "demo", filter: MessageLogFilter(state: .expired), page: PageRequest(size: 1000))
            XCTAssertEqual(expired.items.count, expiring)
            return best
        }
        queue(upTo: n)
        let atN = try expiryCost()
        queue(upTo: 4 * n)
        let at4N = try expiryCost()
        queue(upTo: 16 * n)
        let at16N = try expiryCost()
        print("read expiring 5: \(atN) at n=\(n), \(at4N) at 4n, \(at16N) at 16n")
        XCTAssertEqual(
            try core.device(project: "demo", token: "device-7").get().pendingCount, 16 * n / deviceCount,
            "nothing else expired")
        XCTAssertLessThan(at4N, atN * 5, "expiring read at 4n")
        XCTAssertLessThan(at16N, atN * 5, "expiring read at 16n")
    }

    private func send(_ core: PushEmulatorCore, to token: String, expiringAt seconds: Int64? = nil) {
        send(core, to: .token(token), expiringAt: seconds)
    }

    private func send(_ core: PushEmulatorCore, to target: MessageTarget, expiringAt seconds: Int64? = nil) {
        var headers = [HeaderField("apns-push-type", "alert")]
        if let seconds { headers.append(HeaderField("apns-expiration", String(seconds))) }
        let notification = seconds == nil ? self.notification : APNsNotification(headers: headers, payload: JSONObject())
        let outcome = core.send(project: "demo", target: target, origin: .fcm, requestBody: Array("{}".utf8)) {
            _ in Result<DeliveryContent?, Never>.success(notification)
        }
        guard case .accepted = outcome else { return XCTFail("not accepted") }
    }

    /// The fastest of 7 rounds of 5 calls of `body`, per call.
    private func fastest(_ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        var best = Duration.seconds(3600)
        for _ in 0..<7 {
            let start = clock.now
            for _ in 0..<5 { body() }
            best = min(best, (clock.now - start) / 5)
        }
        return best
    }
}
