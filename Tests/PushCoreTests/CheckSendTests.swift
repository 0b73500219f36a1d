import ByteCoding
import XCTest

@testable import PushCore

/// `validate_only`: the send's verdict, conversion included, with nothing changed.
final class CheckSendTests: XCTestCase {
    func testConversionFailureIsTheAnswer() {
        let core = makeCore()
        register(core)
        let checked = core.checkSend(project: "demo", target: .token("device-1")) { _ in
            Result<DeliveryContent?, GoogleError>.failure(.fcmMessageTooBig(byteCount: 5000, limit: 4096))
        }
        XCTAssertEqual(try? checked.get(), nil)
        guard case .failure(let error) = checked else { return XCTFail("the conversion's failure must be the answer") }
        XCTAssertEqual(error, .fcmMessageTooBig(byteCount: 5000, limit: 4096))
    }

    func testConvertsUnderTheNextSendsContextAndChangesNothing() {
        let core = makeCore()
        register(core)
        var seen: DeliveryContext?
        let checked = core.checkSend(project: "demo", target: .token("device-1")) { context in
            seen = context
            return Result<DeliveryContent?, Never>.success(APNsNotification(headers: [], payload: JSONObject()))
        }
        XCTAssertEqual(checked.get(), .deliverable)
        // The id the check converted under is the one the next send gets: the size it measured
        // is the size the send will have.
        let sent = sendFCM(core).sent
        XCTAssertEqual(seen?.messageID, sent?.messageID)
        XCTAssertEqual(seen?.messageName, sent?.messageName)
        XCTAssertEqual(seen?.bundleID, "com.example.app")
        XCTAssertEqual(try core.messages(project: "demo", filter: MessageLogFilter()).items.count, 1)
    }

    func testLenientModeRegistersNothing() {
        let core = makeCore()
        XCTAssertEqual(checkTarget(core, .token("brand-new:APA91bXYZ")), .deliverable)
        XCTAssertEqual(try core.devices(project: "demo").items, [])
    }
}
