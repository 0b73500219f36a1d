/// When a stored delivery expires: the entries of a project's `MinHeap` of expiries, earliest
/// first, ties in delivery (send) order.
struct PendingExpiry: Comparable, Sendable {
    /// The delivery's `expiresAt`.
    var expiresAt: Timestamp
    /// The delivery's number.
    var number: Int

    static func < (lhs: PendingExpiry, rhs: PendingExpiry) -> Bool {
        (lhs.expiresAt, lhs.number) < (rhs.expiresAt, rhs.number)
    }
}
