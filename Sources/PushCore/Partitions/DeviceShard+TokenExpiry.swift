/// FCM's expiry of Android tokens after 270 days without a connection (docs/android.md, "Token
/// expiry"), noted in each shard as its devices connect and found due when the project is next
/// worked on (`ProjectState.expireInactiveTokens`).
extension DeviceShard {
    /// Notes when `device`'s token expires if it stays away: for an Android device not connected.
    mutating func scheduleTokenExpiry(of device: Device) {
        guard let at = device.tokenExpiresAt else { return }
        tokenExpiries.insert(TokenExpiry(at: at, token: device.token))
    }

    /// The tokens of this shard's devices that have expired by `now`, once each.
    mutating func dueExpiredTokens(at now: Timestamp) -> [String] {
        var due = [String]()
        while let next = tokenExpiries.min, next.at <= now {
            tokenExpiries.removeMin()
            // A device that connected since has a later entry; one gone or connected has none due.
            guard let expiresAt = devices[next.token]?.tokenExpiresAt, expiresAt <= now, !due.contains(next.token)
            else { continue }
            due.append(next.token)
        }
        return due
    }

    /// Whether the device of `token` has an expired token (then the project's next whole turn
    /// uninstalls it).
    func hasExpiredToken(_ token: String, at now: Timestamp) -> Bool {
        devices[token]?.tokenExpiresAt.map { $0 <= now } ?? false
    }
}
