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

    /// A send's name is made with its id's digits in place; the id reads back from its end.
    func testGeneratedNameEndsWithTheID() {
        for start: Int64 in [0, 1, 9, 10, 99_999_999, 1_763_000_000_000, Int64.max / 1_000_000] {
            var generator = MessageIDGenerator(wallTimeMilliseconds: start)
            for project in ["demo", "projet-é", ""] {
                let id = generator.make()
                let (name, idByteCount) = generator.makeName(project: project)
                let nextID = String(UInt64(id)! + 1)
                XCTAssertEqual(name, "projects/\(project)/messages/\(nextID)")
                XCTAssertEqual(idByteCount, nextID.utf8.count)
                XCTAssertEqual(MessageName.messageID(of: name), nextID)
            }
        }
    }
}
