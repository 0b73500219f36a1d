import PushCore
import XCTest

/// A device token of one APNs environment pushed through the other's host: BadDeviceToken
/// (docs/apns.md, "Environment").
final class APNsEnvironmentTests: XCTestCase {
    private let token = String(repeating: "ab", count: 32)

    private func register(_ core: PushEmulatorCore, _ environment: APNsEnvironment?, project: String = "apns") {
        _ = try! core.registerDevice(
            project: project, DeviceRegistration(apnsToken: token, token: "device-1", apnsEnvironment: environment)
        ).get()
    }

    private func reached(_ core: PushEmulatorCore, through environment: APNsEnvironment) -> Result<String, APNsRecipientError> {
        core.apnsRecipient(deviceToken: token, bundleID: "com.example.app", environment: environment, defaultProject: "apns")
            .map { $0.project }
    }

    func testEachRegisteredEnvironmentAgainstEachHost() {
        let rows: [(registered: APNsEnvironment?, host: APNsEnvironment, reached: Bool)] = [
            (nil, .development, true), (nil, .production, true),
            (.development, .development, true), (.development, .production, false),
            (.production, .production, true), (.production, .development, false),
        ]
        for row in rows {
            let core = makeCore()
            register(core, row.registered)
            let answer = reached(core, through: row.host)
            if row.reached {
                XCTAssertEqual(answer, .success("apns"), "\(row)")
            } else {
                XCTAssertEqual(answer, .failure(.otherEnvironment), "\(row)")
            }
        }
    }

    func testTheEnvironmentChangesWithAPatchAndSurvivesASnapshot() throws {
        let core = makeCore()
        register(core, .production)
        XCTAssertEqual(reached(core, through: .development), .failure(.otherEnvironment))
        _ = try core.updateDevice(project: "apns", token: "device-1", apnsEnvironment: .some(.development)).get()
        XCTAssertEqual(reached(core, through: .development), .success("apns"))
        XCTAssertEqual(reached(core, through: .production), .failure(.otherEnvironment))
        let restored = makeCore()
        try restored.importState(core.exportState())
        XCTAssertEqual(try restored.device(project: "apns", token: "device-1").get().apnsEnvironment, .development)
        XCTAssertEqual(reached(restored, through: .production), .failure(.otherEnvironment))
        _ = try core.updateDevice(project: "apns", token: "device-1", apnsEnvironment: .some(nil)).get()
        XCTAssertEqual(reached(core, through: .production), .success("apns"))
    }

    func testADeviceOfTheOtherEnvironmentSaysMoreThanAnUninstalledOne() {
        let core = makeCore()
        register(core, nil, project: "old")
        _ = core.uninstallDevice(project: "old", token: "device-1")
        register(core, .development)
        XCTAssertEqual(reached(core, through: .production), .failure(.otherEnvironment))
    }
}
