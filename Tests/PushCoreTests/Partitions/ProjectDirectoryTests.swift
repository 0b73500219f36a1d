@testable import PushCore
import XCTest

/// The directory of project slots: an export holds every project at once, however many there
/// are, and removing a project leaves nothing of it in the cross-project indexes.
final class ProjectDirectoryTests: XCTestCase {
    /// An export took each project's lock inside the previous one's closure: a stack frame per
    /// project, which overflowed the stack with this many.
    func testAnExportHoldsEveryProjectOfMany() throws {
        let core = makeCore()
        let count = 100_000
        for n in 0..<count { register(core, token: "device", project: "project-\(n)") }
        let exported = core.exportState()
        guard case .object(let top) = exported, case .array(let projects)? = top["projects"] else {
            return XCTFail("no projects in the export")
        }
        XCTAssertEqual(projects.count, count)
        let again = makeCore()
        try again.importState(exported)
        XCTAssertEqual(again.directory.slots.count, count)
        XCTAssertEqual(again.summary().devices, count)
    }

    /// A project reset while another thread registers devices with an APNs token in a project
    /// of the same id leaves the index naming the project exactly when it holds the token.
    func testResetsRacingRegistrationsLeaveTheIndexRight() {
        let core = makeCore()
        let apnsToken = String(repeating: "ab", count: 32)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for n in 0..<2_000 {
                if worker == 0 {
                    core.resetProject("demo")
                } else {
                    _ = core.registerDevice(project: "demo", DeviceRegistration(apnsToken: apnsToken, token: "device-\(n)"))
                }
            }
        }
        let holds = core.withProject("demo") { $0.apnsTokens.contains(apnsToken) } ?? false
        XCTAssertEqual(core.indexes.projects(holdingAPNsToken: apnsToken), holds ? ["demo"] : [])
    }
}
