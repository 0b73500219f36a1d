import XCTest
@testable import ByteCoding

final class JSONSerializerTests: XCTestCase {
    /// The buffer writer gives the array's bytes when they fit, and otherwise the size they need,
    /// whatever the point where the room ran out.
    func testBufferWriterWritesWhatFitsAndCountsWhatDoesNot() {
        let value = obj(
            ("short", str("plain")), ("long", str("a longer string with \"quotes\" and \u{1}")),
            ("list", .array([num(1), .bool(true), .null])), ("", str("")))
        let expected = JSONSerializer.serialize(value)
        for capacity in 0...expected.count + 30 {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
                var writer = JSONBufferWriter(scratch)
                JSONSerializer.write(value, to: &writer)
                XCTAssertEqual(writer.count, expected.count, "capacity \(capacity)")
                XCTAssertEqual(writer.overflowed, capacity < expected.count, "capacity \(capacity)")
                if !writer.overflowed { XCTAssertEqual(Array(writer.written), expected, "capacity \(capacity)") }
            }
        }
    }

    func testSingleMemberObjectMatchesTheSerializer() {
        for text in ["", "projects/demo/messages/6810356097230477954", "a\"b\\c", String(repeating: "\u{1}", count: 40), "日本語"] {
            XCTAssertEqual(JSONSerializer.object(key: "name", string: text), JSONSerializer.serialize(obj(("name", str(text)))))
        }
    }

    func testWritesCompactJSONInMemberOrder() {
        let value: JSONValue = ["z": 1, "a": [true, false, .null, .number("-1.5e3")], "m": ["k": "v"]]
        XCTAssertEqual(value.jsonString, #"{"z":1,"a":[true,false,null,-1.5e3],"m":{"k":"v"}}"#)
    }

    func testEscapesQuotesBackslashesAndControlCharacters() {
        let value = JSONValue.string("a\"b\\c/\n\r\t\u{8}\u{C}\u{0}\u{1F}é😀")
        XCTAssertEqual(value.jsonString, #""a\"b\\c/\n\r\t\b\f\u0000\u001fé😀""#)
    }

    /// Every character that needs an escape, and some that do not, at each position of strings
    /// long enough to be scanned eight bytes at a time.
    func testEscapesAtEveryPositionOfLongStrings() {
        let specials: [(Character, String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{0}", #"\u0000"#), ("\u{1F}", #"\u001f"#),
            (" ", " "), ("!", "!"), ("#", "#"), ("[", "["), ("]", "]"), ("\u{7F}", "\u{7F}"), ("é", "é"),
        ]
        for length in 1...20 {
            for position in 0..<length {
                for (special, escaped) in specials {
                    var text = String(repeating: "a", count: length)
                    var expected = text
                    let index = text.index(text.startIndex, offsetBy: position)
                    text.replaceSubrange(index...index, with: String(special))
                    expected.replaceSubrange(index...index, with: escaped)
                    XCTAssertEqual(JSONValue.string(text).jsonString, "\"" + expected + "\"", "\(length) \(position)")
                }
            }
        }
    }

    /// Strings of every short length, ASCII or not, are written quoted.
    func testWritesPlainStringsOfEveryShortLength() {
        for length in 0...17 {
            let text = String("abcdefghijklmnopq".prefix(length))
            XCTAssertEqual(JSONValue.string(text).jsonString, "\"" + text + "\"", "\(length)")
        }
        XCTAssertEqual(JSONValue.string("é\"").jsonString, #""é\"""#)
    }

    func testEscapesKeys() {
        let value: JSONValue = ["line\nbreak": "x"]
        XCTAssertEqual(value.jsonString, #"{"line\nbreak":"x"}"#)
    }

    func testEmptyContainers() {
        XCTAssertEqual(JSONValue.object(JSONObject()).jsonString, "{}")
        XCTAssertEqual(JSONValue.array([]).jsonString, "[]")
        XCTAssertEqual(JSONValue.string("").jsonString, #""""#)
    }

    func testRoundTripsThroughTheParser() throws {
        let text = #"{"message":{"token":"t","data":{"a":"1","b":"\u0001"},"apns":{"payload":{"aps":{"alert":{"title":"é"}},"n":[1,2.50,{}]}}},"validate_only":false}"#
        let value = try JSONParser.parse(text)
        let again = try JSONParser.parse(value.jsonBytes)
        XCTAssertEqual(again, value)
        XCTAssertEqual(value.jsonString, text)
    }

    func testAccessors() throws {
        let value = try JSONParser.parse(#"{"s":"x","n":12,"b":true,"o":{},"a":[],"z":null}"#)
        XCTAssertEqual(value["s"]?.stringValue, "x")
        XCTAssertEqual(value["n"]?.numberText, "12")
        XCTAssertEqual(value["b"]?.boolValue, true)
        XCTAssertEqual(value["o"]?.objectValue, JSONObject())
        XCTAssertEqual(value["a"]?.arrayValue, [])
        XCTAssertEqual(value["z"]?.isNull, true)
        XCTAssertNil(value["s"]?.numberText)
        XCTAssertNil(value["missing"])
        XCTAssertNil(JSONValue.string("x")["s"])
    }
}
