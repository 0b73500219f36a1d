import XCTest
@testable import ByteCoding

final class JSONParserTests: XCTestCase {
    func testParsesNestedValuesKeepingOrderAndNumberText() throws {
        let value = try JSONParser.parse(#" {"b": [1.50, -0, 1E+2, true, false, null], "a": {"x": "y"}} "#)
        XCTAssertEqual(
            value,
            .object(
                JSONObject([
                    .init(
                        key: "b",
                        value: .array([.number("1.50"), .number("-0"), .number("1E+2"), .bool(true), .bool(false), .null])),
                    .init(key: "a", value: .object(JSONObject([.init(key: "x", value: .string("y"))]))),
                ])))
        XCTAssertEqual(value.objectValue?.keys, ["b", "a"])
    }

    func testDecodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\u0000""#)
        XCTAssertEqual(value, .string("a\"b\\c/d\u{8}\u{C}\n\r\té😀\u{0}"))
    }

    func testKeepsRawUTF8() throws {
        XCTAssertEqual(try JSONParser.parse("\"Portugal vs. Denmark ⚽️\""), .string("Portugal vs. Denmark ⚽️"))
    }

    func testRejectsMalformedInputWithReasonAndOffset() {
        let cases: [(input: [UInt8], reason: JSONParseError.Reason, offset: Int, atEnd: Bool)] = [
            (Array("".utf8), .expectedValue, 0, true),
            (Array("   ".utf8), .expectedValue, 3, true),
            (Array("{".utf8), .expectedKeyOrObjectEnd, 1, true),
            (Array(#"{"a":1,}"#.utf8), .expectedKey, 7, false),
            (Array(#"{a:1}"#.utf8), .expectedKeyOrObjectEnd, 1, false),
            (Array("[1,]".utf8), .expectedValue, 3, false),
            (Array("[".utf8), .expectedValueOrArrayEnd, 1, true),
            (Array(#"{"a" 1}"#.utf8), .expectedColon, 5, false),
            (Array(#"{"a":1 "b":2}"#.utf8), .expectedCommaOrObjectEnd, 7, false),
            (Array(#"{"a":1"#.utf8), .expectedCommaOrObjectEnd, 6, true),
            (Array("[1 2]".utf8), .expectedCommaOrArrayEnd, 3, false),
            (Array(#""abc"#.utf8), .unterminatedString, 4, false),
            (Array(#""\x""#.utf8), .invalidEscape, 1, false),
            (Array(#""\u12G4""#.utf8), .invalidEscape, 1, false),
            (Array(#""\ud800""#.utf8), .missingLowSurrogate, 1, false),
            (Array(#""\ud800\u0041""#.utf8), .invalidLowSurrogate, 7, false),
            (Array(#""\udc00""#.utf8), .loneLowSurrogate, 1, false),
            ([0x22, 0x61, 0x01, 0x22], .controlCharacterInString, 2, false),
            ([0x22, 0x61, 0x0A, 0x22], .controlCharacterInString, 2, false),
            ([0x22, 0xC3, 0x28, 0x22], .invalidUTF8, 1, false),
            ([0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, 1, false),  // overlong "/"
            ([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, 1, false),  // encoded surrogate
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, 1, false),  // above U+10FFFF
            ([0x22, 0xE2, 0x82], .invalidUTF8, 1, false),  // truncated
            ([0xFF], .invalidUTF8, 0, false),
            ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .expectedValue, 0, false),  // byte order mark
            (Array("012".utf8), .leadingZero, 0, false),
            (Array("-".utf8), .invalidNumber, 0, false),
            (Array("-a".utf8), .invalidNumber, 0, false),
            (Array("1.".utf8), .invalidNumber, 0, false),
            (Array("1e+".utf8), .invalidNumber, 0, false),
            (Array("+1".utf8), .expectedValue, 0, false),
            (Array("1e999".utf8), .numberOutOfRange, 0, false),
            (Array("{} x".utf8), .trailingContent, 3, false),
            (Array("1 2".utf8), .trailingContent, 2, false),
            (Array("tru".utf8), .unexpectedToken, 0, false),
            (Array("nulL".utf8), .unexpectedToken, 0, false),
            (Array("True".utf8), .unexpectedToken, 0, false),
            (Array("'a'".utf8), .expectedValue, 0, false),
            (Array(#"{"a":1,"a":2}"#.utf8), .duplicateKey("a"), 7, false),
        ]
        for testCase in cases {
            let text = String(decoding: testCase.input, as: UTF8.self)
            do {
                let value = try JSONParser.parse(testCase.input)
                XCTFail("parsed \(text) as \(value)")
            } catch {
                XCTAssertEqual(error.reason, testCase.reason, text)
                XCTAssertEqual(error.offset, testCase.offset, text)
                XCTAssertEqual(error.atEndOfInput, testCase.atEnd, text)
            }
        }
    }

    func testDuplicateKeysAreFoundInLargeObjects() {
        var text = "{"
        for i in 0..<500 { text += "\"k\(i)\":\(i)," }
        text += "\"k250\":0}"
        XCTAssertThrowsError(try JSONParser.parse(text)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, .duplicateKey("k250"))
        }
    }

    func testNestingLimitCountsObjectsAndArrays() throws {
        let deepest = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertNoThrow(try JSONParser.parse(deepest))
        let tooDeep = String(repeating: #"{"k":"#, count: 100) + "[]" + String(repeating: "}", count: 100)
        XCTAssertThrowsError(try JSONParser.parse(tooDeep)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, .tooDeep(key: "k"))
            XCTAssertEqual(
                (error as? JSONParseError)?.googleDescription, "Message too deep. Max recursion depth reached for key 'k'")
        }
        XCTAssertThrowsError(try JSONParser.parse("[[[1]]]", maxDepth: 2))
    }

    func testGoogleDescriptionQuotesTwentyBytesEitherSideWithCaret() {
        XCTAssertThrowsError(try JSONParser.parse(#"{"a": 1 "b"}"#)) { error in
            XCTAssertEqual(
                (error as? JSONParseError)?.googleDescription,
                "Expected , or } after key:value pair.\n{\"a\": 1 \"b\"}\n        ^")
        }
        let long = #"{"message": {"token": "abcdefghijklmnopqrstuvwxyz" "topic": "x"}}"#
        XCTAssertThrowsError(try JSONParser.parse(long)) { error in
            XCTAssertEqual(
                (error as? JSONParseError)?.googleDescription,
                "Expected , or } after key:value pair.\nijklmnopqrstuvwxyz\" \"topic\": \"x\"}}\n" + String(repeating: " ", count: 20)
                    + "^")
        }
        XCTAssertThrowsError(try JSONParser.parse(#"{"a": "#)) { error in
            XCTAssertEqual(
                (error as? JSONParseError)?.googleDescription,
                "Unexpected end of string. Expected a value.\n{\"a\": \n      ^")
        }
    }

    func testReportsLineAndColumn() {
        XCTAssertThrowsError(try JSONParser.parse("{\n  \"a\": tru\n}")) { error in
            let parseError = error as? JSONParseError
            XCTAssertEqual(parseError?.line, 2)
            XCTAssertEqual(parseError?.column, 8)
            XCTAssertEqual(parseError?.description, "line 2, column 8: Unexpected token.")
        }
    }

    func testParsesFromRawBuffer() throws {
        let bytes = Array(#"{"ok":true}"#.utf8)
        let value = try bytes.withUnsafeBytes { buffer in try JSONParser.parse(buffer) }
        XCTAssertEqual(value["ok"], .bool(true))
    }

    /// The eight-at-a-time string scan looks at every byte that matters, wherever it is in the word.
    func testWordScanMissesNoByteThatNeedsALook() {
        for byte in UInt8.min...UInt8.max {
            let matters = byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80
            for position in 0..<8 {
                var bytes = [UInt8](repeating: 0x61, count: 8)
                bytes[position] = byte
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                XCTAssertEqual(JSONStringBytes.needsLook(word), matters, "byte \(byte) at \(position)")
            }
        }
    }

    /// Short plain strings are read a word at a time; they must be the strings the standard
    /// library makes, wherever they sit in the body.
    func testShortASCIIStringsAreTheStandardLibrarysStrings() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz-_.~%0123456789")
        for count in 0...20 {
            let text = String(alphabet[0..<count])
            for document in [#""\#(text)""#, #"["\#(text)"]"#, #"{"\#(text)":"\#(text)"}"#, #"{"k":"\#(text)"}   "#] {
                let value = try JSONParser.parse(document)
                let strings = [value.stringValue, value.arrayValue?.first?.stringValue, value.objectValue?.keys.first,
                    value.objectValue?.members.first?.value.stringValue].compactMap { $0 }
                XCTAssertFalse(strings.isEmpty, document)
                for string in strings where string != "k" {
                    XCTAssertEqual(string, text, document)
                    XCTAssertEqual(Array(string.utf8), Array(text.utf8), document)
                    XCTAssertEqual(string.count, count, document)
                    XCTAssertEqual(string.hashValue, text.hashValue, document)
                    XCTAssertEqual(string + "!", text + "!", document)
                }
            }
        }
    }

    /// A number keeps its text, as the string the standard library makes of those bytes, wherever
    /// it sits and whatever follows it.
    func testNumbersKeepTheirTextWhereverTheySit() throws {
        let numbers = ["0", "7", "10", "1234567", "12345678", "123456789012345", "-1", "1.5", "1e3", "1E3", "0.5", "9,"]
        for number in numbers {
            let text = number.hasSuffix(",") ? String(number.dropLast()) : number
            for document in ["[\(text),1]", "[\(text)]", "{\"badge\":\(text),\"sound\":\"default\"}", "[\(text) ,      1]", "\(text)"] {
                let value = try JSONParser.parse(document)
                let parsed = value.arrayValue?.first ?? value.objectValue?.members.first?.value ?? value
                XCTAssertEqual(parsed, .number(text), document)
                guard case .number(let made) = parsed else { continue }
                XCTAssertEqual(Array(made.utf8), Array(text.utf8), document)
                XCTAssertEqual(made.hashValue, text.hashValue, document)
            }
        }
        for bad in ["[01,1]", "[00000000]", "[1.,2]", "[1e,2]", "[-,12345]", "[1x,2]"] {
            XCTAssertThrowsError(try JSONParser.parse(bad), bad)
        }
    }
}
