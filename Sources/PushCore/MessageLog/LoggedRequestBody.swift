import ByteCoding

/// What the message log keeps of a send's request body (docs/fcm.md, "The message log").
///
/// The log shows a request parsed, so the whitespace between its tokens shows nowhere: a body
/// padded with it (a megabyte of spaces around a 300-byte message) would otherwise be held,
/// whole, until the log is cleared. A body of up to `keptAsSentLimit` bytes is kept as sent
/// (most are far smaller, and they are not read again); a longer one without that whitespace.
public enum LoggedRequestBody {
    /// The longest body kept as sent: FCM's limit on a message's data payload (4,096 bytes).
    /// Our choice: Google keeps no log to compare with.
    public static let keptAsSentLimit = 4096

    /// `body` as the log keeps it: unchanged up to `keptAsSentLimit` bytes, else compacted
    /// (`JSONCompaction`). `body` is a JSON text the send's parser accepted.
    @inlinable
    public static func kept(_ body: [UInt8]) -> [UInt8] {
        // One comparison for the sends of every day; the walk only for long bodies.
        body.count <= keptAsSentLimit ? body : JSONCompaction.compacted(body)
    }
}
