import PushCore
import XCTest

/// A token spelled with other bytes that `String` calls equal (the Kelvin sign for `K`) names no
/// device: every way in compares tokens byte for byte. It used to reach the device, and a
/// subscription or a connect under such a spelling stored the device again under it, after which
/// the real token found nothing, sends registered a second device and the export could not be
/// imported.
final class TokenSpellingTests: XCTestCase {
    private let token = "device-K"
    private let kelvin = "device-\u{212A}"

    private func core(_ mode: TokenMode = .lenient) -> PushEmulatorCore {
        var configuration = PushCoreConfiguration()
        configuration.tokenMode = mode
        let core = makeCore(configuration)
        register(core, token: token)
        return core
    }

    /// The device is still there under its own token, and alone.
    private func assertUntouched(_ core: PushEmulatorCore, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try core.device(project: "demo", token: token).get().token, token, file: file, line: line)
        XCTAssertEqual(try core.devices(project: "demo").items.map(\.token), [token], file: file, line: line)
        let restored = makeCore()
        XCTAssertNoThrow(try restored.importState(core.exportState()), file: file, line: line)
    }

    func testASubscriptionUnderTheSpellingIsRefusedAsMalformed() throws {
        let core = core()
        XCTAssertEqual(core.subscribe(project: "demo", registration: kelvin, topic: "news").failure, .malformedRegistration)
        XCTAssertEqual(core.batchSubscription(tokens: [kelvin], topic: "news", subscribe: true), [.malformedRegistration])
        XCTAssertNotNil(core.instance(token: kelvin).failure)
        try assertUntouched(core)
    }

    func testAConnectOrStreamUnderTheSpellingFindsNoDevice() throws {
        let core = core()
        XCTAssertEqual(core.connect(project: "demo", token: kelvin).failure, .notFound)
        XCTAssertEqual(core.attachStream(project: "demo", token: kelvin) { _, _ in }.failure, .notFound)
        XCTAssertEqual(core.device(project: "demo", token: kelvin).failure, .notFound)
        XCTAssertEqual(core.uninstallDevice(project: "demo", token: kelvin).failure, .notFound)
        try assertUntouched(core)
    }

    func testASendUnderTheSpellingIsAnInvalidToken() throws {
        for mode in [TokenMode.lenient, .strict] {
            let core = core(mode)
            guard case .unreachable(.invalidRegistration) = sendFCM(core, to: .token(kelvin)) else { return XCTFail("\(mode)") }
            guard case .accepted = sendFCM(core, to: .token(token)) else { return XCTFail("\(mode)") }
            try assertUntouched(core)
        }
    }

    func testAnUninstalledTokenIsNotFoundUnderTheSpelling() throws {
        let core = core()
        _ = core.uninstallDevice(project: "demo", token: token)
        guard case .unreachable(.invalidRegistration) = sendFCM(core, to: .token(kelvin)) else { return XCTFail() }
        guard case .unreachable(.unregistered) = sendFCM(core, to: .token(token)) else { return XCTFail() }
        XCTAssertEqual(core.device(project: "demo", token: kelvin).failure, .notFound)
    }
}
