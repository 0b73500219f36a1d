/// The client stream ids an HTTP/2 connection skipped: RFC 9113 §5.1.1 closes every idle stream
/// below a newly used id, so a HEADERS frame that opens one of them later is a connection error
/// (PROTOCOL_ERROR). nghttp2 ignores such a block (it cannot tell it from a late trailer on a
/// stream it has forgotten), so the connection remembers the gaps itself.
///
/// Clients number their streams 1, 3, 5, … without gaps, so this usually holds nothing; a client
/// that skips often has only its latest `capacity` gaps remembered, and an older skipped id is
/// then ignored as nghttp2 would.
struct HTTP2SkippedStreamIDs {
    /// The highest client stream id a HEADERS frame has used.
    private(set) var highest: Int32 = 0
    private var gaps: [ClosedRange<Int32>] = []
    private let capacity = 16

    /// Records a HEADERS frame's stream id; returns false when the id opens a stream that an
    /// earlier, higher id closed without it ever being used.
    mutating func use(_ id: Int32) -> Bool {
        guard id > highest else {
            return !gaps.contains { $0.contains(id) }
        }
        // Client ids are odd: the next one expected is highest + 2 (1 at first). An even id is
        // nghttp2's to refuse; it leaves no gap of its own. Counted in `Int`: next to the largest
        // id (2^31 - 1), highest + 2 and next + 2 do not fit an `Int32` (wrapped, they made a
        // range whose bounds were the wrong way round, and the server trapped).
        let next = highest == 0 ? 1 : Int(highest) + 2
        if Int(id) >= next + 2 {
            if gaps.count == capacity { gaps.removeFirst() }
            // Both bounds fit: next <= id - 2 < Int32.max.
            gaps.append(Int32(next)...(id - 2))
        }
        highest = id
        return true
    }
}
