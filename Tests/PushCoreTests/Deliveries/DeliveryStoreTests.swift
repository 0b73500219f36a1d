import ByteCoding
import XCTest

@testable import PushCore

/// The store a project keeps its deliveries in, and the lazily kept parts of a delivery.
final class DeliveryStoreTests: XCTestCase {
    private func delivery(_ number: Int, token: String = "t") -> Delivery {
        Delivery(
            number: number, messageName: MessageName(project: "demo", id: UInt64(number)), token: token, origin: .fcm,
            enqueuedAt: Timestamp(secondsSinceEpoch: 100), expiresAt: Timestamp(secondsSinceEpoch: 200),
            isNowOrNever: false, hasCollapseID: false,
            notification: APNsNotification(headers: [HeaderField("apns-push-type", "alert")], payload: JSONObject()),
            presentedAppState: .background)
    }

    func testAppendsLooksUpUpdatesAndRemovesByNumber() {
        var store = DeliveryStore()
        for number in [3, 5, 8, 13] { store[number] = delivery(number) }
        XCTAssertEqual(store.count, 4)
        XCTAssertEqual(store[8]?.number, 8)
        XCTAssertNil(store[4])
        XCTAssertNil(store[1])
        XCTAssertNil(store[14])
        store[5]?.move(to: .delivered, at: Timestamp(secondsSinceEpoch: 150))
        XCTAssertEqual(store[5]?.state, .delivered)
        XCTAssertEqual(store[3]?.state, .pending)
        store[8] = nil
        XCTAssertNil(store[8])
        XCTAssertEqual(store[13]?.number, 13)
        store.removeAll { $0.number < 10 }
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(store[13]?.number, 13)
    }

    func testTheDeliveriesOfANumberRangeAreTheStoredOnesInIt() {
        var store = DeliveryStore(chunkCapacity: 2)
        for number in [3, 5, 8, 13, 21] { store[number] = delivery(number) }
        store[8] = nil
        func numbers(_ range: Range<Int>) -> [Int] { store.deliveries(numbered: range).map(\.number) }
        XCTAssertEqual(numbers(4..<14), [5, 13])
        XCTAssertEqual(numbers(3..<5), [3])
        XCTAssertEqual(numbers(8..<9), [])
        XCTAssertEqual(numbers(0..<3), [])
        XCTAssertEqual(numbers(22..<30), [])
        XCTAssertEqual(numbers(5..<5), [])
        // A range of billions costs two bisections, not a lookup per number.
        XCTAssertEqual(numbers(1..<(1 << 53)), [3, 5, 13, 21])
    }

    func testHistoryStartsPendingAndGrowsWithEachMove() {
        var made = delivery(1)
        XCTAssertEqual(made.history, [DeliveryTransition(state: .pending, at: Timestamp(secondsSinceEpoch: 100))])
        made.move(to: .collapsed, at: Timestamp(secondsSinceEpoch: 120), reason: "replaced by d-2")
        XCTAssertEqual(made.history.map(\.state), [.pending, .collapsed])
        XCTAssertEqual(made.history.last?.reason, "replaced by d-2")
        XCTAssertNil(made.deliveredAt)
    }

    func testNotificationKeepsItsPayloadSerializedAndExactlySized() {
        let payload = JSONObject([JSONObject.Member(key: "aps", value: .object(JSONObject()))])
        let notification = APNsNotification(headers: [], payload: payload)
        XCTAssertEqual(notification.payloadBytes, Array(#"{"aps":{}}"#.utf8))
        XCTAssertEqual(notification.payloadByteCount, 10)
        XCTAssertEqual(notification.payload, payload)
        XCTAssertLessThanOrEqual(notification.payloadBytes.capacity, 10 + 10 / 4 + 16)
    }

    /// A delivery's expiry is what its own `apns-expiration` says, whatever came before it.
    func testExpirationReadAsTheHeaderSaysAfterAnyEarlierOne() {
        let device = Device(
            platform: .ios, bundleID: "b", token: "t", apnsToken: nil, appState: .background,
            registeredAt: Timestamp(secondsSinceEpoch: 0), sequence: 0)
        let now = Timestamp(millisecondsSinceEpoch: 1_700_000_000_250)
        let texts: [String?] = [
            "1800000000", "1800000000", "1800000001", nil, "", "", "0", "1800000001", "abc", "abc",
            "-5", "9000000000000", "9000000000000", "1800000000", nil, "0", "0", "00", "000",
        ]
        for text in texts {
            var headers = [HeaderField("apns-push-type", "alert")]
            if let text { headers.append(HeaderField("apns-expiration", text)) }
            let made = Delivery.pending(
                DeliveryContent(APNsNotification(headers: headers, payload: JSONObject())), number: 1,
                messageName: MessageName(project: "demo", id: 1), device: device, origin: .fcm, now: now)
            let isZero = text.flatMap { Int64($0) } == 0
            let expected =
                isZero
                ? now
                : text.flatMap { Int64($0) }.map { Timestamp(secondsSinceEpoch: $0) }
                    ?? now.adding(seconds: AppleConversion.defaultExpirationSeconds)
            XCTAssertEqual(made.expiresAt, expected, "\(text ?? "none")")
            XCTAssertEqual(made.isNowOrNever, isZero, "\(text ?? "none")")
        }
    }

    /// Kept in small chunks, the store answers as a sorted array of the same deliveries would,
    /// through appends, replacements, removals one by one and by a condition, and misses.
    func testChunkedStoreMatchesASortedArray() {
        var random = SeededRandomNumberGenerator(seed: 7)
        for chunkCapacity in [1, 2, 3, 5] {
            var store = DeliveryStore(chunkCapacity: chunkCapacity)
            var model = [(number: Int, token: String)]()
            var next = 1
            for step in 0..<2_000 {
                switch random.next() % 10 {
                case 0...4:
                    next += Int(random.next() % 3)
                    store.append(delivery(next))
                    model.append((next, "t"))
                    next += 1
                case 5, 6:
                    guard !model.isEmpty else { continue }
                    let removed = model.remove(at: Int(random.next() % UInt64(model.count)))
                    store[removed.number] = nil
                case 7:
                    guard !model.isEmpty else { continue }
                    let place = Int(random.next() % UInt64(model.count))
                    model[place].token = "r\(step)"
                    let replacement = delivery(model[place].number, token: model[place].token)
                    if step % 2 == 0 {
                        store[model[place].number] = replacement
                    } else {
                        XCTAssertNotNil(store.update(model[place].number) { $0 = replacement })
                    }
                case 8:
                    let divisor = Int(random.next() % 5) + 2
                    model.removeAll { $0.number % divisor == 0 }
                    store.removeAll { $0.number % divisor == 0 }
                default:
                    store[next + 5] = delivery(next + 5)
                    model.append((next + 5, "t"))
                    next += 6
                }
                XCTAssertEqual(store.count, model.count)
                let probe = Int(random.next() % UInt64(next + 1))
                XCTAssertEqual(store[probe]?.token, model.first { $0.number == probe }?.token)
            }
            for number in 0...next {
                XCTAssertEqual(store[number]?.token, model.first { $0.number == number }?.token, "\(number)")
            }
        }
    }
}
