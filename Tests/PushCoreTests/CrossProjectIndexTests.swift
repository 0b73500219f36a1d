import ByteCoding
@testable import PushCore
import Synchronization
import XCTest

/// The indexes kept across projects (`CrossProjectIndexes`: (APNs token → projects, faulted service account
/// → projects, the fault count) stay equal to what a walk over every project finds, through
/// every change of devices, APNs tokens and faults.
final class CrossProjectIndexTests: XCTestCase {
    private let apnsToken = "ab" + String(repeating: "0", count: 62)
    private let otherAPNsToken = "cd" + String(repeating: "0", count: 62)

    /// What the indexes should hold, found by walking every project.
    private func recount(_ core: PushEmulatorCore) -> (apns: [String: [String]], accounts: [String: [String]], faults: Int) {
        var apns = [String: [String]]()
        var accounts = [String: Set<String>]()
        var faults = 0
        for project in core.directory.slots.compactMap({ $0.withWholeProject { $0 } }) {
            let id = project.projectID
            for token in project.apnsTokens {
                apns[token, default: []].append(id)
            }
            faults += project.faults.faults.count
            for fault in project.faults.faults {
                if case .serviceAccount(let email) = fault.spec.match { accounts[email, default: []].insert(id) }
            }
        }
        return (apns.mapValues { $0.sorted() }, accounts.mapValues { $0.sorted() }, faults)
    }

    private func assertIndexesMatch(_ core: PushEmulatorCore, _ step: String, line: UInt = #line) {
        let expected = recount(core)
        core.indexes.tables.withLock { state in
            let apns = Dictionary(uniqueKeysWithValues: state.projectsByAPNsToken.entries.map { ($0.token, $0.value.ids) })
            XCTAssertEqual(apns, expected.apns, "APNs tokens after \(step)", line: line)
            XCTAssertEqual(state.projectsByFaultedServiceAccount.mapValues(\.ids), expected.accounts, "accounts after \(step)", line: line)
            XCTAssertEqual(state.faultCount, expected.faults, "fault count after \(step)", line: line)
        }
        XCTAssertEqual(
            core.indexes.faultsPresent.load(ordering: .relaxed), core.indexes.tables.withLock { $0.faultCount > 0 }, step,
            line: line)
    }

    private func accountFault(_ email: String) throws -> FaultSpec {
        try FaultSpec(
            match: .serviceAccount(email), errorName: "invalid_grant", times: nil, retryAfterSeconds: nil,
            delayMilliseconds: nil, probability: nil, seed: nil)
    }

    func testTheIndexesFollowEveryChange() throws {
        let core = makeCore()
        register(core, token: "d1", apnsToken: apnsToken.uppercased(), project: "zeta")
        register(core, token: "d2", apnsToken: apnsToken, project: "alpha")
        register(core, token: "d3", project: "alpha")
        assertIndexesMatch(core, "register")
        // A push to an unknown token registers it in the project it is sent to (lenient mode).
        sendAPNs(core, apnsToken: otherAPNsToken, body: "x", project: "apns")
        assertIndexesMatch(core, "a lenient APNs send")
        try core.uninstallDevice(project: "alpha", token: "d2").get()
        assertIndexesMatch(core, "uninstall")
        XCTAssertEqual(core.indexes.tables.withLock { $0.projectsByAPNsToken[apnsToken]?.ids }, ["alpha", "zeta"])
        register(core, token: "d4", apnsToken: apnsToken, project: "alpha")
        assertIndexesMatch(core, "registering an uninstalled APNs token again")
        _ = try core.updateDevice(project: "alpha", token: "d4", appState: .foreground, bundleID: "com.other").get()
        assertIndexesMatch(core, "update")

        let first = try core.addFault(project: "zeta", try accountFault("a@b"))
        try core.addFault(project: "zeta", try accountFault("a@b"))
        try core.addFault(project: "alpha", try accountFault("a@b"))
        try core.addFault(project: "alpha", try accountFault("c@d"))
        try core.addFault(project: "beta", try FaultSpec(
            match: .everySend, errorName: "UNAVAILABLE", times: nil, retryAfterSeconds: nil, delayMilliseconds: nil,
            probability: nil, seed: nil))
        assertIndexesMatch(core, "adding faults")
        core.deleteFault(project: "zeta", id: first.id)
        assertIndexesMatch(core, "deleting one of two faults of an account")
        XCTAssertEqual(core.indexes.tables.withLock { $0.projectsByFaultedServiceAccount["a@b"]?.ids }, ["alpha", "zeta"])
        XCTAssertFalse(core.deleteFault(project: "zeta", id: first.id))
        assertIndexesMatch(core, "deleting a fault that is gone")
        core.deleteFaults(project: "alpha")
        assertIndexesMatch(core, "deleting a project's faults")
        XCTAssertEqual(core.indexes.tables.withLock { $0.projectsByFaultedServiceAccount["c@d"] }, nil)

        core.resetProject("zeta")
        assertIndexesMatch(core, "resetting a project")
        XCTAssertEqual(core.indexes.tables.withLock { $0.projectsByAPNsToken[apnsToken]?.ids }, ["alpha"])

        let snapshot = core.exportState()
        try core.addFault(project: "alpha", try accountFault("e@f"))
        register(core, token: "d5", apnsToken: "ef" + String(repeating: "1", count: 62), project: "gamma")
        try core.importState(snapshot)
        assertIndexesMatch(core, "an import")
        XCTAssertNil(core.indexes.tables.withLock { $0.projectsByFaultedServiceAccount["e@f"] })

        core.resetAll()
        assertIndexesMatch(core, "resetting everything")
        XCTAssertTrue(core.indexes.tables.withLock { $0.projectsByAPNsToken.isEmpty && $0.projectsByFaultedServiceAccount.isEmpty })
    }

    /// Several projects with one APNs token: the default project first, then the others by id.
    func testTheRecipientOrderIsTheDefaultProjectThenByID() throws {
        let core = makeCore()
        for project in ["zeta", "beta", "apns", "alpha"] {
            _ = try core.registerDevice(
                project: project,
                DeviceRegistration(bundleID: "com.\(project)", apnsToken: apnsToken, token: "d-\(project)")
            ).get()
        }
        func recipient(_ bundleID: String?, _ defaultProject: String = "apns") -> String? {
            try? core.apnsRecipient(deviceToken: apnsToken, bundleID: bundleID, defaultProject: defaultProject).get().project
        }
        XCTAssertEqual(recipient(nil), "apns")
        XCTAssertEqual(recipient(nil, "nothing-here"), "alpha")
        XCTAssertEqual(recipient("com.zeta"), "zeta")
        XCTAssertEqual(recipient("com.beta", "zeta"), "beta")
        try core.uninstallDevice(project: "alpha", token: "d-alpha").get()
        // alpha's device is gone (Unregistered there): the next project by id that can take it.
        XCTAssertEqual(recipient(nil, "nothing-here"), "apns")
        XCTAssertEqual(
            core.apnsRecipient(deviceToken: apnsToken, bundleID: "com.alpha", defaultProject: "apns"),
            .failure(.notForTopic))
    }
}
