/// FCM's expiry of Android tokens after 270 days without a connection (docs/android.md, "Token
/// expiry"), noted in each shard as its devices connect and found due when the project is next
/// worked on (`ProjectState.expireInactiveTokens`).
extension DeviceShard {
    /// Notes when `device`'s token expires if it stays away: for an Android device not connected,
    /// unless its token has an entry already (an earlier one is looked at again when it comes up),
    /// so that a device polled often adds nothing.
    mutating func scheduleTokenExpiry(of device: Device) {
        guard let at = device.tokenExpiresAt, tokensWithExpiry.insert(device.token).inserted else { return }
        tokenExpiries.insert(TokenExpiry(at: at, token: device.token))
    }

    /// The tokens of this shard's devices that have expired by `now`, once each. An entry that
    /// came up early (its device connected since) goes back at the device's time; one of a
    /// device gone or connected goes (a stream's end schedules it again).
    mutating func dueExpiredTokens(at now: Timestamp) -> [String] {
        var due = [String]()
        while let next = tokenExpiries.min, next.at <= now {
            tokenExpiries.removeMin()
            tokensWithExpiry.remove(next.token)
            guard let device = devices[next.token], let expiresAt = device.tokenExpiresAt else { continue }
            if expiresAt <= now {
                due.append(next.token)
            } else {
                scheduleTokenExpiry(of: device)
            }
        }
        return due
    }

    /// Whether the device of `token` has an expired token (then the project's next whole turn
    /// uninstalls it).
    func hasExpiredToken(_ token: String, at now: Timestamp) -> Bool {
        devices[token]?.tokenExpiresAt.map { $0 <= now } ?? false
    }
}
