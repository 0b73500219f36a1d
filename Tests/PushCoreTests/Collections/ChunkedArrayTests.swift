import XCTest

@testable import PushCore

/// The chunked array answers as a plain array of the same elements would, however it is chunked.
final class ChunkedArrayTests: XCTestCase {
    /// Random appends, replacements, removals (one at a time and by a condition) and clears on
    /// small chunks, each followed by a comparison with an `Array` given the same operations:
    /// the elements in order both ways, the count, lookups by position and by bisection, and the
    /// chunks' invariant (none empty, none over capacity).
    func testMatchesAPlainArrayThroughRandomOperations() {
        var random = SeededRandomNumberGenerator(seed: 11)
        for chunkCapacity in [1, 2, 3, 7, 64] {
            var chunked = ChunkedArray<Int>(chunkCapacity: chunkCapacity)
            var plain = [Int]()
            var next = 0
            for step in 0..<3_000 {
                switch random.next() % 20 {
                case 0...9:
                    // Kept ascending, so that bisection applies; gaps leave numbers to miss.
                    next += 1 + Int(random.next() % 3)
                    chunked.append(next)
                    plain.append(next)
                case 10...13:
                    guard !plain.isEmpty else { continue }
                    let offset = Int(random.next() % UInt64(plain.count))
                    let index = chunked.index(chunked.startIndex, offsetBy: offset)
                    XCTAssertEqual(chunked.remove(at: index), plain.remove(at: offset))
                case 14, 15:
                    // Replaced in place by the same value plus nothing: order is kept, the write is seen.
                    guard !plain.isEmpty else { continue }
                    let offset = Int(random.next() % UInt64(plain.count))
                    let index = chunked.index(chunked.startIndex, offsetBy: offset)
                    chunked[index] = -1
                    XCTAssertEqual(chunked[index], -1)
                    chunked[index] = plain[offset]
                case 16, 17:
                    let divisor = Int(random.next() % 5) + 2
                    chunked.removeAll { $0 % divisor == 0 }
                    plain.removeAll { $0 % divisor == 0 }
                case 18 where step % 500 == 0:
                    chunked.removeAll()
                    plain.removeAll()
                case 19:
                    // A number that is missing goes back in its place, as a returned delivery does.
                    let value = Int(random.next() % UInt64(next + 1))
                    let offset = plain.firstIndex { $0 >= value } ?? plain.endIndex
                    guard offset == plain.endIndex || plain[offset] != value else { continue }
                    chunked.insert(value, at: chunked.partitioningIndex { $0 >= value })
                    plain.insert(value, at: offset)
                default:
                    break
                }
                XCTAssertEqual(chunked.count, plain.count)
                XCTAssertEqual(chunked.isEmpty, plain.isEmpty)
                XCTAssertFalse(chunked.chunkCounts.contains { $0 == 0 || $0 > chunkCapacity })
                XCTAssertEqual(chunked.chunkCounts.reduce(0, +), plain.count)
                let probe = Int(random.next() % UInt64(next + 2))
                let found = chunked.partitioningIndex { $0 >= probe }
                let expected = plain.firstIndex { $0 >= probe } ?? plain.endIndex
                XCTAssertEqual(chunked.distance(from: chunked.startIndex, to: found), expected, "\(probe)")
                if step % 97 == 0 {
                    XCTAssertEqual(Array(chunked), plain)
                    XCTAssertEqual(Array(chunked.reversed()), Array(plain.reversed()))
                }
            }
            XCTAssertEqual(Array(chunked), plain)
            for probe in -1...next + 1 {
                let found = chunked.partitioningIndex { $0 >= probe }
                XCTAssertEqual(
                    chunked.distance(from: chunked.startIndex, to: found),
                    plain.firstIndex { $0 >= probe } ?? plain.endIndex)
            }
        }
    }

    /// A one-element array (a device's queue under Apple's store-one rule) keeps or loses its
    /// element by the condition, whichever chunk holds it, and takes appends afterwards.
    func testRemovingByAConditionFromOneElement() {
        for chunkCapacity in [1, 4] {
            var kept = ChunkedArray<Int>(chunkCapacity: chunkCapacity)
            kept.append(7)
            kept.removeAll { $0 == 8 }
            XCTAssertEqual(Array(kept), [7])
            XCTAssertEqual(kept.count, 1)
            var emptied = kept
            emptied.removeAll { $0 == 7 }
            XCTAssertEqual(Array(emptied), [])
            XCTAssertEqual(emptied.count, 0)
            XCTAssertTrue(emptied.isEmpty)
            emptied.append(9)
            XCTAssertEqual(Array(emptied), [9])
            XCTAssertEqual(Array(kept), [7], "a copy is not changed")
        }
    }

    /// Appends fill each chunk to capacity before starting the next; equality ignores the chunking.
    func testAppendsFillChunksAndEqualityIgnoresChunking() {
        var small = ChunkedArray<Int>(chunkCapacity: 3)
        var large = ChunkedArray<Int>(chunkCapacity: 100)
        for value in 0..<8 {
            small.append(value)
            large.append(value)
        }
        XCTAssertEqual(small.chunkCounts, [3, 3, 2])
        XCTAssertEqual(small, large)
        XCTAssertEqual(small.last, 7)
        XCTAssertEqual(small.first, 0)
        small.remove(at: small.partitioningIndex { $0 >= 4 })
        XCTAssertEqual(small.chunkCounts, [3, 2, 2])
        XCTAssertNotEqual(small, large)
        XCTAssertEqual(Array(small[small.partitioningIndex { $0 >= 3 }...]), [3, 5, 6, 7])
    }

    /// An empty array, and a search past every element, answer `endIndex`.
    func testEmptyAndPastTheEnd() {
        var empty = ChunkedArray<Int>()
        XCTAssertEqual(empty.partitioningIndex { $0 >= 0 }, empty.endIndex)
        XCTAssertEqual(Array(empty), [])
        empty.append(1)
        XCTAssertEqual(empty.partitioningIndex { $0 >= 2 }, empty.endIndex)
        XCTAssertEqual(empty.partitioningIndex { $0 >= 1 }, empty.startIndex)
    }
}
