import XCTest

@testable import PushCore

/// Message names, copied byte by byte into one buffer, against string interpolation.
final class MessageNameTests: XCTestCase {
    func testNameIsTheInterpolatedOne() {
        let projects = ["", "demo", "bench", "my-project-123456789", "projet-é", String(repeating: "p", count: 40)]
        let ids = ["", "1", "6810356097230477954", "fake_message_id", String(repeating: "9", count: 30)]
        for project in projects {
            for id in ids {
                XCTAssertEqual(MessageName.make(project: project, messageID: id), "projects/\(project)/messages/\(id)")
                // From substrings' copies too: strings of other storage read the same.
                let copied = String(("x" + project).dropFirst())
                XCTAssertEqual(MessageName.make(project: copied, messageID: id), "projects/\(project)/messages/\(id)")
            }
        }
    }
}
