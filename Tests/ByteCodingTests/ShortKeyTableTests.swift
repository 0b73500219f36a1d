import XCTest
@testable import ByteCoding

/// `ShortKeyTable` against a dictionary of the same keys: every key of every length up to the
/// longest is found at its position, by the prefix a caller reads, and keys that differ from one
/// by a single byte, by their length or by running past the longest are not found.
final class ShortKeyTableTests: XCTestCase {
    private func position(of key: [UInt8], in table: ShortKeyTable) -> Int? {
        key.withUnsafeBytes { table.position(of: $0, prefix: ShortKeyTable.prefix(of: $0)) }
    }

    func testFindsExactlyTheKeysItHolds() {
        var random = SeededRandom(seed: 11)
        // Few letters, so that many keys share prefixes and lengths.
        func randomKey(count: Int) -> [UInt8] {
            (0..<count).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0..<3, using: &random) }
        }
        for _ in 0..<200 {
            var positions: [[UInt8]: Int] = [:]
            for position in 0..<Int.random(in: 1...24, using: &random) {
                let key = randomKey(count: Int.random(in: 0...ShortKeyTable.maxCount, using: &random))
                if positions[key] == nil { positions[key] = position }
            }
            let table = ShortKeyTable(positions.map { (String(decoding: $0.key, as: UTF8.self), $0.value) })
            for (key, expected) in positions {
                XCTAssertEqual(position(of: key, in: table), expected, "\(key)")
            }
            // Near misses: one byte changed, one added or dropped, and keys too long for any table.
            for key in positions.keys {
                var candidates = [key + [UInt8(ascii: "a")], Array(key.dropLast()), randomKey(count: ShortKeyTable.maxCount + 1)]
                if !key.isEmpty {
                    var changed = key
                    changed[Int.random(in: 0..<key.count, using: &random)] ^= 0x01
                    candidates.append(changed)
                }
                for candidate in candidates {
                    XCTAssertEqual(position(of: candidate, in: table), positions[candidate], "\(candidate)")
                }
            }
        }
    }
}
