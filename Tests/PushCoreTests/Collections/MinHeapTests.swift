import XCTest

@testable import PushCore

/// The heap gives its elements back smallest first, as sorting them would.
final class MinHeapTests: XCTestCase {
    /// Random inserts (many in order, as expiries arrive), removals of the smallest and removals
    /// by a condition, checked against a sorted array given the same operations.
    func testMatchesASortedArrayThroughRandomOperations() {
        var random = SeededRandomNumberGenerator(seed: 5)
        var heap = MinHeap<Int>()
        var model = [Int]()
        var rising = 0
        for _ in 0..<5_000 {
            switch random.next() % 10 {
            case 0...3:
                rising += Int(random.next() % 4)
                heap.insert(rising)
                model.append(rising)
            case 4, 5:
                let value = Int(random.next() % 1_000)
                heap.insert(value)
                model.append(value)
            case 6...8:
                model.sort()
                XCTAssertEqual(heap.removeMin(), model.isEmpty ? nil : model.removeFirst())
            default:
                let divisor = Int(random.next() % 7) + 2
                heap.removeAll { $0 % divisor == 0 }
                model.removeAll { $0 % divisor == 0 }
            }
            XCTAssertEqual(heap.count, model.count)
            XCTAssertEqual(heap.isEmpty, model.isEmpty)
            XCTAssertEqual(heap.min, model.min())
        }
        var drained = [Int]()
        while let smallest = heap.removeMin() { drained.append(smallest) }
        XCTAssertEqual(drained, model.sorted())
    }

    /// A heap built from a sequence at once gives the same order as one built by inserts.
    func testBuiltFromASequence() {
        var random = SeededRandomNumberGenerator(seed: 9)
        for count in [0, 1, 2, 3, 10, 257] {
            let values = (0..<count).map { _ in Int(random.next() % 100) }
            var heap = MinHeap(values)
            var drained = [Int]()
            while let smallest = heap.removeMin() { drained.append(smallest) }
            XCTAssertEqual(drained, values.sorted(), "\(count)")
        }
    }

    /// Expiries order by time, then by delivery number.
    func testPendingExpiryOrdersByTimeThenNumber() {
        let early = Timestamp(secondsSinceEpoch: 10)
        let late = Timestamp(secondsSinceEpoch: 20)
        var heap = MinHeap([
            PendingExpiry(expiresAt: late, number: 1), PendingExpiry(expiresAt: early, number: 3),
            PendingExpiry(expiresAt: early, number: 2),
        ])
        XCTAssertEqual(heap.removeMin()?.number, 2)
        XCTAssertEqual(heap.removeMin()?.number, 3)
        XCTAssertEqual(heap.removeMin()?.number, 1)
    }
}
