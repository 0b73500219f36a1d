/// When an Android device's registration token expires for want of a connection (docs/android.md,
/// "Token expiry"), as its shard last noted it: an entry goes stale when the device connects
/// again, and is checked against the device when it comes up (`DeviceShard.dueExpiredTokens`).
struct TokenExpiry: Comparable, Sendable {
    var at: Timestamp
    var token: String

    static func < (lhs: TokenExpiry, rhs: TokenExpiry) -> Bool {
        (lhs.at, lhs.token) < (rhs.at, rhs.token)
    }
}
