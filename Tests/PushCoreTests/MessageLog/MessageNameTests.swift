import ByteCoding
import XCTest

@testable import PushCore

/// Message names, kept as a project and a number, against string interpolation.
final class MessageNameTests: XCTestCase {
    private let projects = ["", "demo", "bench", "my-project-123456789", "projet-é", "quo\"te\\", String(repeating: "p", count: 40)]
    private let ids: [UInt64] = [0, 1, 9, 10, 99_999_999, 100_000_000, 6_810_356_097_230_477_954, UInt64.max]

    func testTextIsTheInterpolatedOne() {
        for project in projects {
            for id in ids {
                let name = MessageName(project: project, id: id)
                XCTAssertEqual(name.text, "projects/\(project)/messages/\(id)")
                XCTAssertEqual(name.messageID, String(id))
                // From substrings' copies too: strings of other storage read the same.
                XCTAssertEqual(MessageName(project: String(("x" + project).dropFirst()), id: id).text, name.text)
            }
        }
    }

    /// The answer's JSON string, written from the parts, is the serializer's of the text.
    func testJSONStringIsTheSerializedText() {
        for project in projects + ["tab\there", "\u{1}"] {
            for id in ids {
                let name = MessageName(project: project, id: id)
                var written = [UInt8]()
                name.writeJSONString(to: &written)
                XCTAssertEqual(written, JSONSerializer.serialize(.string(name.text)), name.text)
            }
        }
    }

    /// A snapshot's names read back; text of any other shape does not.
    func testParsingReadsBackTheText() {
        for project in projects + ["a/messages/b", "x/y"] {
            for id in ids {
                let name = MessageName(project: project, id: id)
                XCTAssertEqual(MessageName(parsing: name.text), name, name.text)
            }
        }
        for text in [
            "", "projects/demo/messages/", "projects/demo/messages/fake_message_id", "projects/demo/messages/+1",
            "projects/demo/messages/01", "projects/demo/messages/18446744073709551616", "projects/demo/1",
            "projects/messages/1", "project/demo/messages/1", "projects/demo/messages/1/",
        ] {
            XCTAssertNil(MessageName(parsing: text), text)
        }
    }

    /// A send's name carries the next id.
    func testGeneratedNameCarriesTheNextID() {
        for start: Int64 in [0, 1, 9, 10, 99_999_999, 1_763_000_000_000, Int64.max / 1_000_000] {
            var generator = MessageIDGenerator(wallTimeMilliseconds: start)
            for project in ["demo", "projet-é", ""] {
                let id = generator.make()
                let name = generator.makeName(project: project)
                XCTAssertEqual(name.text, "projects/\(project)/messages/\(UInt64(id)! + 1)")
            }
        }
    }
}
