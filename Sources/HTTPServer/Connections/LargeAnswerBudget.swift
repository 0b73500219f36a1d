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

    /// `response`, an answer of more than `threshold` bytes, if it fits: its bytes are then
    /// counted, and `heldBytes` says how many to give back with `release` once they are sent or
    /// dropped. Else the 503 that says why, holding nothing.
    @inline(never)
    static func admit(
        _ response: HTTPResponse, heldBytes: inout Int, errorResponse: (Int, String, String?) -> HTTPResponse
    ) -> HTTPResponse {
        guard case .bytes(let body) = response.body else { return response }
        // The buffer's size, not the answer's: what it holds in memory.
        let count = max(body.count, body.capacity)
        var current = held.load(ordering: .relaxed)
        while current == 0 || current + count <= limit {
            let (exchanged, original) = held.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged {
                heldBytes = count
                return response
            }
            current = original
        }
        var refusal = errorResponse(
            503,
            "Answers of more than 1 MiB already hold \(current) bytes for clients that have not read them, "
                + "and this one's \(count) bytes would take them past the limit of \(limit) bytes; "
                + "try again once those clients have read their answers.",
            // No path: the emulator's large answers are its own API's, in Google's shape.
            nil)
        refusal.headers.add("retry-after", "1")
        return refusal
    }

    /// Gives back what `admit` counted.
    static func release(_ count: Int) {
        held.wrappingSubtract(count, ordering: .relaxed)
    }
}
