import Synchronization

/// The bytes that whole answers of more than `threshold` bytes hold unsent, all connections
/// together (docs/server.md, "Limits and errors"). A client that asks for a large answer (a state
/// export) and never reads it keeps the answer in memory until the idle timeout; without a bound
/// for the process, each such client added a whole copy. Answers of `threshold` bytes or fewer,
/// every ordinary request's, never touch it.
enum LargeAnswerBudget {
    /// Answers longer than this are counted.
    static let threshold = 1_048_576
    /// What counted answers may hold together. One answer is let through whatever its size when
    /// nothing is held, so a state larger than this can still be exported.
    static let limit = 268_435_456
    private static let held = Atomic<Int>(0)

    /// `response`, and the bytes it now holds in the budget (to give back with `release` once
    /// they are sent or dropped): 0 for an answer not counted; the 503 that says why, holding
    /// nothing, for one that would take the total past `limit`.
    @inline(__always)
    static func admit(_ response: HTTPResponse, errorResponse: (Int, String) -> HTTPResponse) -> (response: HTTPResponse, held: Int) {
        guard case .bytes(let body) = response.body, body.count > threshold else { return (response, 0) }
        // The buffer's size, not the answer's: what it holds in memory.
        return admitLarge(response, count: max(body.count, body.capacity), errorResponse: errorResponse)
    }

    @inline(never)
    private static func admitLarge(
        _ response: HTTPResponse, count: Int, errorResponse: (Int, String) -> HTTPResponse
    ) -> (response: HTTPResponse, held: Int) {
        var current = held.load(ordering: .relaxed)
        while current == 0 || current + count <= limit {
            let (exchanged, original) = held.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return (response, count) }
            current = original
        }
        var refusal = errorResponse(
            503,
            "Answers of more than 1 MiB already hold \(current) bytes for clients that have not read them, "
                + "and this one's \(count) bytes would take them past the limit of \(limit) bytes; "
                + "try again once those clients have read their answers.")
        refusal.headers.add("retry-after", "1")
        return (refusal, 0)
    }

    /// Gives back what `admit` counted.
    static func release(_ count: Int) {
        held.wrappingSubtract(count, ordering: .relaxed)
    }
}
