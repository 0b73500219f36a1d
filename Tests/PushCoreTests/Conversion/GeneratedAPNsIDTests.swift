import XCTest

@testable import PushCore

/// A generated `apns-id` is kept as bits and put among the headers when they are read: the
/// notification reads as the one made with the same id given as text, for every header shape.
final class GeneratedAPNsIDTests: XCTestCase {
    private let shapes: [[FCMStringPair]] = [
        [],
        [FCMStringPair("apns-collapse-id", "score")],
        [FCMStringPair("apns-id", "given-id")],
        [FCMStringPair("APNS-ID", "given-upper")],
        [FCMStringPair("x-custom", "yes"), FCMStringPair("apns-push-type", "alert")],
        [FCMStringPair("apns-collapse-id", "c"), FCMStringPair("x-a", "1"), FCMStringPair("X-B", "2")],
        [FCMStringPair("apns-priority", "10"), FCMStringPair("apns-topic", "t"), FCMStringPair("apns-expiration", "0")],
    ]

    func testReadsAsTheNotificationWithTheIDGivenAsText() {
        var random = SeededRandomNumberGenerator(seed: 5)
        for headers in shapes {
            for notification in [FCMNotification?.none, FCMNotification(title: "Hi")] {
                let uuid = RandomUUID(using: &random)
                let context = DeliveryContext(
                    messageName: MessageName(project: "demo", id: 6_810_356_097_230_477_954),
                    bundleID: "com.example.app", senderID: "42", generatedAPNsID: uuid,
                    now: Timestamp(secondsSinceEpoch: 1_763_000_000))
                let generatedInput = AppleConversionInput(
                    context: context, notification: notification, data: [FCMStringPair("k", "v")], apnsHeaders: headers)
                var givenInput = generatedInput
                givenInput.apnsID = uuid.text
                // Given as text too: the id copied from the end of the name writes the same.
                XCTAssertEqual(generatedInput.messageID, "6810356097230477954")
                givenInput.messageID = context.messageID
                XCTAssertEqual(generatedInput.apnsID, uuid.text)
                let generated = AppleConversion.convert(generatedInput)
                let given = AppleConversion.convert(givenInput)
                XCTAssertEqual(generated.headers, given.headers, "\(headers)")
                XCTAssertEqual(generated.payloadBytes, given.payloadBytes)
                XCTAssertEqual(generated, given)
                XCTAssertEqual(generated.pushType, given.pushType)
                XCTAssertEqual(generated.collapseID, given.collapseID)
                XCTAssertEqual(generated.topic, given.topic)
                XCTAssertEqual(generated.headers.value(named: "apns-id"), given.headers.value(named: "apns-id"))
                // Changed through `headers`, it keeps the id it read as.
                var changed = generated
                changed.headers.append(HeaderField("x-later", "1"))
                XCTAssertEqual(changed.headers, given.headers + [HeaderField("x-later", "1")])
            }
        }
    }

    func testTextIsTheCanonicalFormOfTheDrawnBits() {
        var random = SeededRandomNumberGenerator(seed: 9)
        var same = SeededRandomNumberGenerator(seed: 9)
        // The same draws, the version and variant bits set and written as hex the plain way.
        let high = (same.next() & ~0xF000) | 0x4000
        let low = (same.next() & ~(0xC << 60)) | (0x8 << 60)
        let hex = [high, low].map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        XCTAssertEqual(RandomUUID(using: &random).text, groups.joined(separator: "-"))
    }
}
