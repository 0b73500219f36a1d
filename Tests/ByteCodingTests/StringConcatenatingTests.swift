import XCTest
@testable import ByteCoding

/// Strings joined by raw copies, against `+`: empty parts, parts that together stay short
/// enough for the inline form or go past it, non-ASCII text, and every kind of part.
final class StringConcatenatingTests: XCTestCase {
    private let texts = [
        "", "a", "demo", "projects/", "/messages/", "6810356097230477954", "projet-é", "café 😀 \"q\"",
        String(repeating: "p", count: 15), String(repeating: "p", count: 16), String(repeating: "x", count: 200),
    ]

    func testFourStringsJoinAsConcatenation() {
        for a in texts {
            for b in texts {
                for (c, d) in zip(texts, texts.reversed()) {
                    XCTAssertEqual(String(concatenating: a, b, c, d), a + b + c + d)
                }
            }
        }
    }

    func testEveryKindOfPartReadsTheSame() {
        let literal: StaticString = "projects/"
        let accented: StaticString = "é"
        for text in texts {
            // A string in other storage than its own: a substring's copy.
            let copied = String(("x" + text).dropFirst())
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                XCTAssertEqual(
                    String(concatenating: literal, copied, UnsafeRawBufferPointer(bytes), bytes),
                    "projects/" + text + text + text)
                XCTAssertEqual(String(concatenating: accented, text, "" as StaticString, accented), "é" + text + "é")
                XCTAssertEqual(String(concatenating: bytes), text)
            }
            XCTAssertEqual(String(concatenating: copied), text)
        }
    }

    func testMessageNameFromDigits() {
        var random = SeededRandom(seed: 3)
        for _ in 0..<2_000 {
            let number = random.next() >> UInt64.random(in: 0...63, using: &random)
            let name = DecimalDigits.withDigits(of: number) { digits in
                String(concatenating: "projects/" as StaticString, "demo", "/messages/" as StaticString, digits)
            }
            XCTAssertEqual(name, "projects/demo/messages/" + String(number))
        }
    }
}
