import ByteCoding
@testable import PushCore
import XCTest

/// The app-state tables of docs/android.md and docs/web.md, a test per row: who gets a message,
/// what is shown, what a tap opens, and the warnings.
final class AndroidWebPresentationTests: XCTestCase {
    private let facts = AndroidDeliveryFacts(
        from: "123456789012", senderID: "123456789012", messageID: "6810356097230477954",
        sentAtMilliseconds: 1_795_341_600_000, appID: "com.example.app")

    private func android(_ json: String) throws -> AndroidMessage {
        AndroidConversion.convert(try FCMSendRequest(body: Array(#"{"message":{"token":"T",\#(json)}}"#.utf8)).message, facts: facts)
    }

    private func web(_ json: String) throws -> WebPushMessage {
        WebConversion.convert(try FCMSendRequest(body: Array(#"{"message":{"token":"T",\#(json)}}"#.utf8)).message, facts: facts)
    }

    private let notification = #""notification":{"title":"Hi"}"#
    private let data = #""data":{"k":"v"}"#
    private let both = #""notification":{"title":"Hi"},"data":{"k":"v"}"#

    // MARK: Android

    func testAndroidNotificationInTheForegroundGoesToOnMessageReceived() throws {
        let shown = AndroidPresentation.describe(try android(notification), appState: .foreground)
        XCTAssertEqual(shown, AndroidPresentation(shown: false, callback: "onMessageReceived", channel: nil, tapOpens: nil, tapExtras: [], warnings: []))
    }

    func testAndroidNotificationInTheBackgroundOrNotRunningIsShownWithoutACallback() throws {
        for state in [AppState.background, .notRunning] {
            let shown = AndroidPresentation.describe(try android(notification), appState: state)
            XCTAssertTrue(shown.shown, "\(state)")
            XCTAssertNil(shown.callback)
            XCTAssertEqual(shown.channel, AndroidPresentation.fallbackChannel)
            XCTAssertEqual(shown.tapOpens, "the launcher activity")
            XCTAssertEqual(
                shown.tapExtras,
                ["from", "google.message_id", "google.sent_time", "google.ttl", "google.original_priority",
                 "google.delivered_priority", "collapse_key", "gcm.n.analytics_data"])
        }
    }

    func testAndroidDataGoesToOnMessageReceivedInEveryState() throws {
        for state in AppState.allCases {
            let shown = AndroidPresentation.describe(try android(data), appState: state)
            XCTAssertEqual(shown, AndroidPresentation(shown: false, callback: "onMessageReceived", channel: nil, tapOpens: nil, tapExtras: [], warnings: []), "\(state)")
        }
    }

    func testAndroidBothInTheForegroundGoesToOnMessageReceivedAndInTheBackgroundIsShownWithTheDataOnTap() throws {
        let message = try android(both)
        XCTAssertEqual(AndroidPresentation.describe(message, appState: .foreground).callback, "onMessageReceived")
        XCTAssertNotNil(message.remoteMessage["notification"])
        XCTAssertEqual(message.remoteMessage["data"], ["k": "v"])
        for state in [AppState.background, .notRunning] {
            let shown = AndroidPresentation.describe(message, appState: state)
            XCTAssertTrue(shown.shown)
            XCTAssertNil(shown.callback)
            XCTAssertTrue(shown.tapExtras.contains("k"), "the data rides in the tap's extras")
        }
    }

    func testAChannelTheAppCreatedIsUsedAndAnotherFallsBack() throws {
        let message = try android(#""android":{"notification":{"title":"x","channel_id":"scores","click_action":"OPEN_MATCH"}}"#)
        let created = AndroidPresentation.describe(message, appState: .background, channels: ["scores"])
        XCTAssertEqual(created.channel, "scores")
        XCTAssertEqual(created.tapOpens, #"Intent("OPEN_MATCH")"#)
        XCTAssertEqual(created.warnings, [])
        let missing = AndroidPresentation.describe(message, appState: .background, channels: [])
        XCTAssertEqual(missing.channel, AndroidPresentation.fallbackChannel)
        XCTAssertEqual(missing.warnings.map(\.code), ["channelNotCreated"])
    }

    func testWhatTheSDKDropsAndAHighPriorityMessageThatShowsNothingAreWarnedOf() throws {
        let dropped = AndroidPresentation.describe(
            try android(#""android":{"notification":{"color":"red","notification_count":-2,"vibrate_timings":["1s"],"title_loc_args":["a"]}}"#),
            appState: .background)
        XCTAssertEqual(
            dropped.warnings.map(\.code),
            ["invalidColor", "invalidNotificationCount", "invalidVibrateTimings", "localizationArgumentsWithoutKey"])
        XCTAssertEqual(dropped.warnings[0].message, "Color is invalid: red. Notification will use default color.")
        XCTAssertEqual(dropped.warnings[1].message, "notificationCount is invalid: -2. Skipping setting notificationCount.")
        let high = AndroidPresentation.describe(try android(#""data":{"k":"v"},"android":{"priority":"HIGH"}"#), appState: .background)
        XCTAssertEqual(high.warnings.map(\.code), ["highPriorityWithoutNotification"])
    }

    // MARK: Web

    func testWebForegroundGoesToOnMessageForEveryKind() throws {
        for kind in [notification, data, both] {
            let shown = WebPresentation.describe(try web(kind), appState: .foreground, origin: "https://shop.example")
            XCTAssertEqual(shown, WebPresentation(shown: false, callback: "onMessage", clickOpens: nil, warnings: []), kind)
        }
    }

    func testWebBackgroundShowsANotificationAndCallsOnBackgroundMessage() throws {
        for state in [AppState.background, .notRunning] {
            for kind in [notification, both] {
                let shown = WebPresentation.describe(try web(kind), appState: state, origin: "https://shop.example")
                XCTAssertEqual(shown, WebPresentation(shown: true, callback: "onBackgroundMessage", clickOpens: nil, warnings: []), kind)
            }
        }
    }

    func testWebBackgroundDataGoesToOnBackgroundMessageOnlyAndWithoutOneShowsNothing() throws {
        let message = try web(data)
        XCTAssertEqual(
            WebPresentation.describe(message, appState: .background, origin: "https://shop.example"),
            WebPresentation(shown: false, callback: "onBackgroundMessage", clickOpens: nil, warnings: []))
        let without = WebPresentation.describe(message, appState: .background, origin: "https://shop.example", hasBackgroundHandler: false)
        XCTAssertFalse(without.shown)
        XCTAssertNil(without.callback)
        XCTAssertEqual(without.warnings.map(\.code), ["backgroundDataWithoutHandler"])
    }

    func testAClickOpensTheLinkOnlyOnTheServiceWorkersHost() throws {
        let message = try web(#""notification":{"title":"Sale"},"webpush":{"fcm_options":{"link":"https://shop.example/sale"}}"#)
        XCTAssertEqual(
            WebPresentation.describe(message, appState: .background, origin: "https://shop.example").clickOpens, "https://shop.example/sale")
        let elsewhere = WebPresentation.describe(message, appState: .background, origin: "https://other.example")
        XCTAssertNil(elsewhere.clickOpens)
        XCTAssertEqual(elsewhere.warnings.map(\.code), ["linkOnAnotherHost"])
    }
}
