import XCTest
@testable import ByteCoding

/// `JSONValidator` against the parser it stands in for: wherever it decides, it decides as
/// `JSONParser.parse` does.
final class JSONValidatorTests: XCTestCase {
    /// The parser's answer, as a verdict.
    private func parserVerdict(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONValidator.Verdict {
        guard let value = try? JSONParser.parse(bytes, maxDepth: maxDepth) else { return .invalid }
        if case .object = value { return .object }
        return .otherValue
    }

    private func assertAgrees(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(text.utf8)
        let verdict = JSONValidator.check(bytes, maxDepth: maxDepth)
        guard verdict != .undecided else { return }
        XCTAssertEqual(verdict, parserVerdict(bytes, maxDepth: maxDepth), "for \(text.debugDescription)", file: file, line: line)
    }

    func testDecidesTheUsualPayloadsAsTheParserDoes() {
        let cases: [(String, JSONValidator.Verdict)] = [
            (#"{"aps":{"alert":{"title":"Portugal vs. Denmark","body":"great match!"},"badge":1,"sound":"default"},"matchId":"42"}"#, .object),
            (#" { "aps" : { "content-available" : 1 } } "#, .object),
            (#"{"aps":{"alert":"Bonjour, ça va? 😀 \"quoted\" \u00e9"},"list":[1,-2.5,0,true,false,null,[],{}]}"#, .object),
            ("{}", .object),
            (#"[1,2]"#, .otherValue),
            (#""text""#, .otherValue),
            ("12", .otherValue),
            ("null", .otherValue),
            ("", .invalid),
            ("   ", .invalid),
            ("{", .invalid),
            (#"{"a":1,}"#, .invalid),
            (#"{"a":1}x"#, .invalid),
            (#"{"a":1,"a":2}"#, .invalid),
            (#"{"a":{"b":1},"b":{"a":1}}"#, .object),
            (#"{"a":{"b":1,"b":2}}"#, .invalid),
            (#"{"ab":1,"a":2,"abc":3}"#, .object),
            (#"{"a":"x"#, .invalid),
            ("{\"a\":\"tab\there\"}", .invalid),
            (#"{"a":"\x"}"#, .invalid),
            (#"{"a":"\ud800"}"#, .invalid),
            (#"{"a":"\udc00"}"#, .invalid),
            (#"{"a":01}"#, .invalid),
            (#"{"a":-}"#, .invalid),
            (#"{"a":1.}"#, .invalid),
            (#"{"a":.5}"#, .invalid),
            (#"{"a":tru}"#, .invalid),
            (#"{"a":True}"#, .invalid),
            (#"{"a" 1}"#, .invalid),
            (#"{a:1}"#, .invalid),
            (#"[1 2]"#, .invalid),
            (#"[1,]"#, .invalid),
            (#"{"a":[}"#, .invalid),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(JSONValidator.check(Array(text.utf8)), expected, "for \(text.debugDescription)")
            XCTAssertEqual(parserVerdict(Array(text.utf8)), expected, "the parser, for \(text.debugDescription)")
        }
    }

    func testInvalidUTF8IsInvalid() {
        for bytes: [UInt8] in [[0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], [0xC3, 0xA9]] {
            XCTAssertEqual(JSONValidator.check(bytes), .invalid)
            XCTAssertEqual(parserVerdict(bytes), .invalid)
        }
    }

    func testLeavesToTheParserWhatOnlyItCanDecide() {
        // Keys compared by canonical equivalence or after decoding, large objects, numbers that may overflow.
        for text in [
            #"{"\u0061":1,"a":2}"#, "{\"é\":1,\"e\u{301}\":2}", #"{"a":1e400}"#, #"{"a":1E2}"#,
            "{" + (0..<17).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
            "[" + String(repeating: "9", count: 400) + "]",
            // Nested objects whose keys add up to more than the validator keeps at once.
            String(repeating: "{" + (0..<15).map { "\"k\($0)\":1," }.joined() + "\"n\":", count: 5) + "1"
                + String(repeating: "}", count: 5),
        ] {
            XCTAssertEqual(JSONValidator.check(Array(text.utf8)), .undecided, "for \(text.debugDescription)")
        }
        XCTAssertEqual(parserVerdict(Array(#"{"\u0061":1,"a":2}"#.utf8)), .invalid)
        XCTAssertEqual(parserVerdict(Array("{\"é\":1,\"e\u{301}\":2}".utf8)), .invalid)
        XCTAssertEqual(parserVerdict(Array(#"{"a":1e400}"#.utf8)), .invalid)
        // Four such levels stay within what it keeps, and are decided.
        let fourLevels = String(repeating: "{" + (0..<15).map { "\"k\($0)\":1," }.joined() + "\"n\":", count: 4) + "1"
            + String(repeating: "}", count: 4)
        XCTAssertEqual(JSONValidator.check(Array(fourLevels.utf8)), .object)
    }

    func testNestingLimitIsTheParsers() {
        for depth in 1...6 {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let object = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            for maxDepth in 1...5 {
                XCTAssertEqual(JSONValidator.check(Array(text.utf8), maxDepth: maxDepth), parserVerdict(Array(text.utf8), maxDepth: maxDepth))
                XCTAssertEqual(
                    JSONValidator.check(Array(object.utf8), maxDepth: maxDepth), parserVerdict(Array(object.utf8), maxDepth: maxDepth))
            }
        }
    }

    /// Generated documents and byte-level mutations of them: every decided verdict is the parser's.
    func testAgreesWithTheParserOnGeneratedAndMutatedDocuments() {
        var random = SplitMix(seed: 0x5EED)
        var decided = 0
        for _ in 0..<4000 {
            var bytes = Array(Self.document(&random, depth: 0).utf8)
            let expected = parserVerdict(bytes)
            let verdict = JSONValidator.check(bytes)
            if verdict != .undecided {
                XCTAssertEqual(verdict, expected, "for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                decided += 1
            }
            for _ in 0..<4 {
                Self.mutate(&bytes, &random)
                let verdict = JSONValidator.check(bytes)
                guard verdict != .undecided else { continue }
                XCTAssertEqual(verdict, parserVerdict(bytes), "for \(bytes)")
            }
        }
        XCTAssertGreaterThan(decided, 3000, "most generated documents are decided without the parser")
    }

    private static let pieces = [
        "a", "b", "ab", "aps", "alert", "é", "😀", "\\n", "\\\"", "\\u00e9", "\\ud83d\\ude00", " ", "long text of more than eight bytes",
    ]

    private static func document(_ random: inout SplitMix, depth: Int) -> String {
        switch random.next(below: depth > 3 ? 4 : 7) {
        case 0: return ["0", "-1", "12.5", "-0.25", "7"][random.next(below: 5)]
        case 1: return ["true", "false", "null"][random.next(below: 3)]
        case 2, 3: return "\"" + (0..<random.next(below: 4)).map { _ in pieces[random.next(below: pieces.count)] }.joined() + "\""
        case 4:
            return "[" + (0..<random.next(below: 4)).map { _ in document(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            let keys = ["a", "b", "ab", "aps", "alert", "badge"]
            return "{" + (0..<random.next(below: 5)).map { _ in
                "\"\(keys[random.next(below: keys.count)])\"" + [":", " : ", ":\n"][random.next(below: 3)] + document(&random, depth: depth + 1)
            }.joined(separator: ",") + "}"
        }
    }

    private static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix) {
        let interesting: [UInt8] = Array(#"{}[]",:\-.0123456789eEtrufalsn "#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]
        let position = bytes.isEmpty ? 0 : random.next(below: bytes.count)
        switch random.next(below: 3) {
        case 0 where !bytes.isEmpty: bytes.remove(at: position)
        case 1: bytes.insert(interesting[random.next(below: interesting.count)], at: position)
        default:
            if bytes.isEmpty { bytes.append(interesting[random.next(below: interesting.count)]) } else {
                bytes[position] = interesting[random.next(below: interesting.count)]
            }
        }
    }
}

/// A small deterministic generator for the generated cases.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
