/// The APNs provider API's way in: its path names a device token, not a project.
extension PushEmulatorCore {
    /// Where an APNs send goes: the project of the device with this APNs token — looked for in
    /// `defaultProject` first, then in the others by name — or, for a token no device has,
    /// `defaultProject` (where lenient mode registers it).
    /// - Returns: the project, or Unregistered (with the uninstall time) for a token whose device
    ///   was deleted, or DeviceTokenNotForTopic when the device's bundle id is not `bundleID`.
    public func apnsProject(
        deviceToken: String, bundleID: String?, defaultProject: String
    ) -> Result<String, APNsRecipientError> {
        state.withLock { state in
            let token = APNsDeviceToken.normalized(deviceToken)
            // Read through optional chaining, which reads the project in place: a project taken
            // out as a value would retain every one of its parts.
            func lookup(in id: String) -> Result<String, APNsRecipientError>? {
                if let fcmToken = state.projects[id]?.tokenByAPNsToken[token],
                    let deviceBundleID = state.projects[id]?.devices[fcmToken]?.bundleID
                {
                    if let bundleID, deviceBundleID != bundleID { return .failure(.notForTopic) }
                    return .success(id)
                }
                return state.projects[id]?.uninstalledAPNsTokens[token].map { .failure(.unregistered(since: $0)) }
            }
            if let found = lookup(in: defaultProject) { return found }
            for id in state.projects.keys.sorted() where id != defaultProject {
                if let found = lookup(in: id) { return found }
            }
            return .success(defaultProject)
        }
    }
}

/// Why an APNs send finds no device to queue for.
public enum APNsRecipientError: Error, Sendable, Equatable {
    /// The device was deleted (the app uninstalled) at this time: 410 Unregistered.
    case unregistered(since: Timestamp)
    /// The device's bundle id is not the topic's: 400 DeviceTokenNotForTopic.
    case notForTopic
}
