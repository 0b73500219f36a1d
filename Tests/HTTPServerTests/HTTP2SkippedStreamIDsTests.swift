import Testing
@testable import HTTPServer

@Suite struct HTTP2SkippedStreamIDsTests {
    /// Whether each id, used in turn, was accepted.
    private func use(_ sequence: [Int32]) -> [Bool] {
        var ids = HTTP2SkippedStreamIDs()
        return sequence.map { ids.use($0) }
    }

    @Test func streamsInOrderAndTrailersOnUsedStreamsAreAccepted() {
        #expect(use([1, 3, 5, 7, 3]) == [true, true, true, true, true])
    }

    @Test func anIDBelowAUsedOneThatWasSkippedIsRefused() {
        #expect(use([5, 3, 1, 7, 11, 9, 5]) == [true, false, false, true, true, false, true])
    }

    @Test func evenAndZeroIDsAndTheLargestIDNeverTrap() {
        #expect(use([2, 0, 4, Int32.max, Int32.max - 2]) == [true, true, true, true, false])
    }

    /// Next to the largest id, the id expected after the highest does not fit 32 bits: counted
    /// in them, it wrapped, and the gap's range was built the wrong way round (a trap).
    @Test func idsNextToTheLargestNeverTrap() {
        #expect(use([Int32.max - 2, Int32.max, Int32.max - 2]) == [true, true, true])
        #expect(use([Int32.max - 4, Int32.max, Int32.max - 2]) == [true, true, false])
        #expect(use([1, Int32.max, Int32.max - 2, 3]) == [true, true, false, false])
    }

    @Test func onlyTheLatestGapsAreRemembered() {
        // Each id skips the one before it: 40 gaps, of which the oldest are forgotten.
        let ids = (0..<40).map { Int32(1 + 4 * $0) }
        let results = use(ids + [3, ids.last! - 2])
        #expect(results.dropLast(2).allSatisfy { $0 })
        #expect(results.suffix(2) == [true, false])
    }
}
