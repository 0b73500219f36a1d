@testable import PushCore
import XCTest

/// `projects(page:)`: every project, in the order it was made, with its counts.
final class ProjectListTests: XCTestCase {
    func testProjectsAreListedInCreationOrderAndImportedInIDOrder() throws {
        let core = makeCore()
        for project in ["zeta", "alpha", "mid"] { register(core, project: project) }
        _ = sendFCM(core, project: "alpha")
        XCTAssertEqual(try core.projects().items.map(\.projectID), ["zeta", "alpha", "mid"])
        let alpha = try XCTUnwrap(core.projects().items.first { $0.projectID == "alpha" })
        XCTAssertEqual([alpha.deviceCount, alpha.pendingDeliveryCount, alpha.messageCount], [1, 1, 1])
        core.resetProject("zeta")
        XCTAssertEqual(try core.projects().items.map(\.projectID), ["alpha", "mid"])
        let again = makeCore()
        try again.importState(core.exportState())
        XCTAssertEqual(try again.projects().items.map(\.projectID), ["alpha", "mid"])
        register(again, project: "aardvark")
        XCTAssertEqual(try again.projects().items.map(\.projectID), ["alpha", "mid", "aardvark"])
    }
}
