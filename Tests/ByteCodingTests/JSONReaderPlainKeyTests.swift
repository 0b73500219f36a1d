import XCTest
@testable import ByteCoding

/// `JSONReader.readPlainKey(in:)` against the general parser: for keys of every length, plain or
/// escaped, ASCII or not, at the end of the document or not, it finds the position the parsed
/// key has in a dictionary of the table's keys, or nil where the key is not plain (the general
/// parser reads those), and leaves the reader past the key exactly when it found one.
final class JSONReaderPlainKeyTests: XCTestCase {
    func testAgreesWithTheGeneralParser() {
        var random = SeededRandom(seed: 23)
        let alphabet = Array("abc_\\\"é\u{01}".unicodeScalars)
        for _ in 0..<3000 {
            let keys = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                String((0..<Int.random(in: 0...ShortKeyTable.maxCount, using: &random)).map { _ in
                    Character(UnicodeScalar(UInt8.random(in: UInt8(ascii: "a")...UInt8(ascii: "d"), using: &random)))
                })
            }
            var positions: [String: Int] = [:]
            for (position, key) in keys.enumerated() where positions[key] == nil { positions[key] = position }
            let table = ShortKeyTable(positions.map { ($0.key, $0.value) })
            // A key of the table, or one near it: a character changed into one that needs a look.
            var spelling = keys.randomElement(using: &random)!
            if Bool.random(using: &random), !spelling.isEmpty {
                var scalars = Array(spelling.unicodeScalars)
                scalars[Int.random(in: 0..<scalars.count, using: &random)] = alphabet.randomElement(using: &random)!
                spelling = String(String.UnicodeScalarView(scalars))
            }
            let literal = JSONSerializer.serializeToString(.string(spelling))
            let document = Array((" " + literal + (Bool.random(using: &random) ? ":1}" : "")).utf8)
            document.withUnsafeBytes { buffer in
                var reader = JSONReader(buffer: buffer, maxDepth: 8)
                let found = reader.readPlainKey(in: table)
                var parser = JSONReader(buffer: buffer, maxDepth: 8)
                parser.skipWhitespace()
                let parsed = try? parser.parseString()
                XCTAssertEqual(parsed, spelling, literal)
                let plain = spelling.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }
                if plain {
                    XCTAssertEqual(found, positions[spelling], literal)
                    if found != nil { XCTAssertEqual(reader.index, parser.index, literal) }
                } else {
                    XCTAssertNil(found, literal)
                }
            }
        }
    }
}
