import ByteCoding
import PushCore
import XCTest

/// The validation rows of docs/android.md and docs/web.md ("What the emulator checks"): what the
/// server refuses is refused with 400 INVALID_ARGUMENT; what only the Admin SDKs check is accepted
/// (and noted beside the delivery as a warning, by `AndroidPresentation`).
final class AndroidWebValidationTests: XCTestCase {
    private func decode(_ message: String) -> Result<FCMMessage, GoogleError> {
        do throws(GoogleError) {
            return .success(try FCMSendRequest(body: Array(#"{"message":{"token":"T",\#(message)}}"#.utf8)).message)
        } catch {
            return .failure(error)
        }
    }

    private func assertRefused(_ message: String, _ words: String, line: UInt = #line) {
        switch decode(message) {
        case .success: XCTFail("accepted: \(message)", line: line)
        case .failure(let error):
            XCTAssertEqual(error.status, .invalidArgument, line: line)
            XCTAssertTrue(error.message.contains(words), "\(error.message) lacks \(words)", line: line)
        }
    }

    private func assertAccepted(_ message: String, line: UInt = #line) {
        if case .failure(let error) = decode(message) { XCTFail("refused \(message): \(error.message)", line: line) }
    }

    func testUnknownFieldsAreRefusedInGooglesWords() {
        assertRefused(##""android":{"notification":{"colour":"#ff0000"}}"##, #"Unknown name "colour" at 'message.android.notification': Cannot find field."#)
        assertRefused(#""webpush":{"fcm_options":{"url":"https://x.example"}}"#, #"Unknown name "url""#)
    }

    func testPriorityInEitherCaseAndNothingElse() {
        assertAccepted(#""android":{"priority":"high"}"#)
        assertAccepted(#""android":{"priority":"NORMAL"}"#)
        assertRefused(#""android":{"priority":"urgent"}"#, "priority")
    }

    func testTTLBetweenZeroAndFourWeeks() {
        assertAccepted(#""android":{"ttl":"0s"}"#)
        assertAccepted(#""android":{"ttl":"2419200s"}"#)
        assertRefused(#""android":{"ttl":"2419201s"}"#, "TTL")
        assertRefused(#""android":{"ttl":"-1s"}"#, "TTL")
    }

    func testNotificationEnumsInEitherCase() {
        assertAccepted(#""android":{"notification":{"notification_priority":"priority_high","visibility":"public","proxy":"deny"}}"#)
        assertAccepted(#""android":{"notification":{"notification_priority":"PRIORITY_MIN","visibility":"SECRET"}}"#)
        assertRefused(#""android":{"notification":{"visibility":"hidden"}}"#, "visibility")
    }

    func testLightSettingsNeedTheirThreeMembers() {
        assertAccepted(#""android":{"notification":{"light_settings":{"color":{"red":1},"light_on_duration":"1s","light_off_duration":"2s"}}}"#)
        assertRefused(#""android":{"notification":{"light_settings":{"color":{"red":1},"light_on_duration":"1s"}}}"#, "light_off_duration")
        assertRefused(#""android":{"notification":{"light_settings":{"light_on_duration":"1s","light_off_duration":"2s"}}}"#, "color")
    }

    func testWhatOnlyTheAdminSDKsCheckIsAccepted() {
        // Colour format, arguments without their key, a negative count, one vibration, image URLs, `dir`.
        assertAccepted(#""android":{"notification":{"color":"red","title_loc_args":["a"],"notification_count":-2,"vibrate_timings":["1s"],"image":"not a url"}}"#)
        assertAccepted(#""notification":{"image":"ftp:nothing"},"webpush":{"notification":{"dir":"sideways"}}"#)
    }

    func testWebLinksMustBeHTTPS() {
        assertAccepted(#""webpush":{"fcm_options":{"link":"https://shop.example/sale"}}"#)
        assertRefused(#""webpush":{"fcm_options":{"link":"http://shop.example/sale"}}"#, "HTTPS")
    }

    func testWebHeadersAndDataAreStringMaps() {
        assertRefused(#""webpush":{"headers":{"TTL":600}}"#, "webpush.headers")
        assertRefused(#""webpush":{"data":{"n":1}}"#, "webpush.data")
    }
}
