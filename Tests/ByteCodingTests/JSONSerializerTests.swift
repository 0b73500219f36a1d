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

    /// Short ASCII strings are written from their inline form; longer or non-ASCII ones are not.
    func testWritesPlainStringsOfEveryShortLength() {
        for length in 0...17 {
            let text = String("abcdefghijklmnopq".prefix(length))
            XCTAssertEqual(JSONValue.string(text).jsonString, "\"" + text + "\"", "\(length)")
            XCTAssertEqual(text.smallASCIIWords?.count, length <= 15 ? length : nil, "\(length)")
        }
        XCTAssertNil("é".smallASCIIWords)
        XCTAssertEqual(JSONValue.string("é\"").jsonString, #""é\"""#)
    }

    /// The inline decimal form is `String(_:)`'s, around every change in the number of digits.
    /// The read of an expiration back agrees with `Int64(_:)` on digits, signs, spaces, empty
    /// text and values too large, at every short length.
    func testInt64ValueIsInt64OfTheString() {
        var texts = ["", "0", "00", "+", "-", "+5", "-5", "-0", " 1", "1 ", "1a", "a1", "١٢", "9223372036854775807",
                     "9223372036854775808", "-9223372036854775808", "999999999999999", "1000000000000000",
                     "0000000000000001", "/", ":", "12:3", "1/2"]
        var digits = ""
        for count in 1...18 {
            digits += String(count % 10)
            texts += [digits, String(repeating: "9", count: count), "0" + digits]
        }
        for text in texts {
            XCTAssertEqual(text.int64Value, Int64(text), text)
        }
    }

    func testDecimalIsStringOfTheValue() {
        var values: [Int64] = [0, 1, 9, -1, -10, .max, .min, 1_763_000_000, 999_999_999_999_999, 1_000_000_000_000_000]
        var power: Int64 = 1
        for _ in 0..<18 {
            values += [power - 1, power, power + 1, power * 7 + 3]
            power *= 10
        }
        for value in values {
            let text = String.decimal(value)
            XCTAssertEqual(text, String(value))
            XCTAssertEqual(Array(text.utf8), Array(String(value).utf8))
            XCTAssertEqual(text.hashValue, String(value).hashValue)
        }
    }

    /// The digits are worked out eight at a time in the lanes of a word: every length, with
    /// random digits and random bytes around them, against `String(_:)` and `Int64(_:)`.
    func testDecimalAndInt64ValueAgreeWithTheStandardLibraryOnRandomValues() {
        var random = SeededRandom(seed: 11)
        var power: Int64 = 1
        for _ in 1...16 {
            for _ in 0..<500 {
                let value = Int64.random(in: 0..<power * 10, using: &random)
                XCTAssertEqual(Array(String.decimal(value).utf8), Array(String(value).utf8), "\(value)")
                XCTAssertEqual(String(value).int64Value, value)
                // A byte replaced by one around the digits: `/`, `:`, a space, a letter.
                var bytes = Array(String(value).utf8)
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = [0x2F, 0x3A, 0x20, 0x61].randomElement(using: &random)!
                let text = String(decoding: bytes, as: UTF8.self)
                XCTAssertEqual(text.int64Value, Int64(text), text)
            }
            power = power < 1_000_000_000_000_000 ? power * 10 : power
        }
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
