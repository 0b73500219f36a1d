import PushCore
import XCTest

/// The project id rule: Google's ids, project numbers and short test ids pass; nothing that
/// could run two projects' names together or escape a path does.
final class ProjectIDTests: XCTestCase {
    func testAcceptsGoogleIdsNumbersAndShortIds() {
        for id in ["p", "demo", "my-project-1234", "123456789012", "example.com:my-project", "Demo_1", String(repeating: "a", count: 100)] {
            XCTAssertTrue(ProjectID.isValid(id), id)
        }
    }

    func testRefusesControlCharactersSlashesAndLongIds() {
        for id in ["", "a\u{0}b", "a\nb", "a/b", "a%00b", "a b", "café", "a?b", String(repeating: "a", count: 101)] {
            XCTAssertFalse(ProjectID.isValid(id), id.debugDescription)
        }
    }
}
