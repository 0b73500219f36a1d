import XCTest
@testable import ByteCoding

final class JSONCompactionTests: XCTestCase {
    /// Whitespace between tokens goes, whitespace and escaped quotes inside strings stay, and the
    /// result parses to the same value, in an array of its own size.
    func testRemovesWhitespaceBetweenTokensOnly() throws {
        let text = " {\n\t\"a b\" : [ 1 ,\r\n true , null ] , \"q\\\" \\\\\" : \" x \\\" y \\\\\" ,\"e\":{ } }  "
        let compact = JSONCompaction.compacted(Array(text.utf8))
        XCTAssertEqual(String(decoding: compact, as: UTF8.self), "{\"a b\":[1,true,null],\"q\\\" \\\\\":\" x \\\" y \\\\\",\"e\":{}}")
        XCTAssertEqual(try JSONParser.parse(compact), try JSONParser.parse(text))
        XCTAssertLessThan(compact.capacity, compact.count + 16)  // the allocator rounds up a little
    }

    /// A megabyte of padding around a short message leaves the message's bytes, in a buffer of
    /// their size (a log keeps what this returns).
    func testPaddingLeavesTheMessageInABufferOfItsSize() throws {
        let data = obj(("k", str("a  b")))
        let message = JSONSerializer.serialize(obj(("message", obj(("topic", str("news")), ("data", data)))))
        let padded = Array(message.dropLast()) + [UInt8](repeating: 0x20, count: 1_000_000) + [0x7D]
        let compact = JSONCompaction.compacted(padded)
        XCTAssertEqual(compact, message)
        XCTAssertLessThan(compact.capacity, 1024)
    }

    /// A text without whitespace between its tokens comes back as it is.
    func testCompactTextIsUnchanged() {
        let text = Array("{\"k\":\" v \",\"n\":[1,2]}".utf8)
        XCTAssertEqual(JSONCompaction.compacted(text), text)
    }
}
