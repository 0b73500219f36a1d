extension SnapshotReader {
    /// The member `key` as an FCM registration token, refused unless well-formed.
    func registrationToken(_ key: String) throws(SnapshotError) -> String {
        let token = try string(key)
        guard RegistrationToken.isWellFormed(token) else { throw error(key, "is not a well-formed registration token") }
        return token
    }

    /// The member `key` as an APNs device token, refused unless in lowercase hex: sends look
    /// tokens up in lowercase, so a token stored otherwise would never match.
    func apnsToken(_ key: String) throws(SnapshotError) -> String {
        try checkedAPNsToken(try string(key), key)
    }

    /// `apnsToken(_:)`, for a member that may be absent or null.
    func optionalAPNsToken(_ key: String) throws(SnapshotError) -> String? {
        try optionalString(key).map { token throws(SnapshotError) in try checkedAPNsToken(token, key) }
    }

    private func checkedAPNsToken(_ token: String, _ key: String) throws(SnapshotError) -> String {
        guard APNsDeviceToken.isWellFormed(token), APNsDeviceToken.normalized(token) == token else {
            throw error(key, "must be an APNs device token in lowercase hex")
        }
        return token
    }
}
