/// A count of events in a window of fixed length that opens with the first event after the
/// previous window closed: FCM's quota minutes "are not aligned to the clock" (docs/quotas.md).
/// Runs on the emulator's clock. Concurrent requests read the clock a moment apart and may count in
/// the other order, so a time a little before the window's start counts in it; a clock moved back
/// by more than a window's length opens a new one.
struct QuotaWindow: Sendable, Hashable {
    /// When the window opened; nil before the first event.
    private(set) var start: Timestamp?
    /// Events counted in the window.
    private(set) var count = 0

    /// Counts `amount` events at `now` if that keeps the window within `limit`; false (nothing
    /// counted) when it would pass it.
    mutating func take(_ amount: Int = 1, limit: Int, lengthSeconds: Int64, now: Timestamp) -> Bool {
        if let start, now >= start.adding(seconds: -lengthSeconds), now < start.adding(seconds: lengthSeconds) {
            // The window is open.
        } else {
            start = now
            count = 0
        }
        guard count + amount <= limit else { return false }
        count += amount
        return true
    }

    /// Takes back `amount` events counted by `take` (a request another limit refused).
    mutating func giveBack(_ amount: Int = 1) {
        count = max(0, count - amount)
    }
}
