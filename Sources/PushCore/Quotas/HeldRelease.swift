/// A delayed collapsible message's turn (`DeviceShard.held`), earliest first.
struct HeldRelease: Comparable, Sendable {
    /// The delivery's `heldUntil`.
    var releaseAt: Timestamp
    /// The delivery's number.
    var number: Int

    static func < (lhs: HeldRelease, rhs: HeldRelease) -> Bool {
        (lhs.releaseAt, lhs.number) < (rhs.releaseAt, rhs.number)
    }
}
