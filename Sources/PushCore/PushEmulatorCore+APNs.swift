/// The APNs provider API's way in: its path names a device token, not a project.
extension PushEmulatorCore {
    /// Where an APNs send goes: the project of the device with this APNs token and the topic's
    /// bundle id — looked for in `defaultProject` first, then in the others that hold the token,
    /// by name (`projectsByAPNsToken`: the cost does not grow with the number of projects) — or,
    /// for a token no device has, `defaultProject` (where lenient mode registers it); with the
    /// device found, for `send(knownDevice:)`.
    /// - Returns: the project and device, or, when no project has such a device,
    ///   DeviceTokenNotForTopic if one has a device with the token and another bundle id, else
    ///   Unregistered (with the uninstall time) if one has deleted a device with the token.
    public func apnsRecipient(
        deviceToken: String, bundleID: String?, defaultProject: String
    ) -> Result<APNsRecipient, APNsRecipientError> {
        do {
            let token = APNsDeviceToken.normalized(deviceToken)
            // The project is read where it is stored, under its lock, and so is the device: a
            // copy of either would retain and release its every part.
            func lookup(in id: String) -> Result<APNsRecipient, APNsRecipientError>? {
                while let slot = directory.slot(id) {
                    // Nil only when the project was removed meanwhile: look again.
                    guard let found = slot.read({ Self.lookUp(token, bundleID: bundleID, in: &$0, slot: slot) }) else { continue }
                    return found.map { found in found.map { APNsRecipient(project: id, device: $0) } }
                }
                return nil
            }
            // Registration keeps an APNs token unique within a project only: a device that can
            // take the push wins over another project's deleted device or device of another app.
            var refusal: APNsRecipientError?
            func found(in id: String) -> APNsRecipient? {
                switch lookup(in: id) {
                case .success(let recipient)?: return recipient
                case .failure(let reason)?:
                    if refusal == nil || reason == .notForTopic { refusal = reason }
                    return nil
                case nil: return nil
                }
            }
            if let recipient = found(in: defaultProject) { return .success(recipient) }
            for id in indexes.projects(holdingAPNsToken: token) where id != defaultProject {
                if let recipient = found(in: id) { return .success(recipient) }
            }
            if let refusal { return .failure(refusal) }
            return .success(APNsRecipient(project: defaultProject, device: nil))
        }
    }
}

/// Where an APNs send goes (`PushEmulatorCore.apnsRecipient`).
public struct APNsRecipient: Sendable, Equatable {
    /// The project the push is queued in.
    public let project: String
    /// The device that has the APNs token, or nil when none has (lenient token mode registers one).
    public let device: KnownDevice?

    /// A recipient: `project`, and the `device` found, if any.
    public init(project: String, device: KnownDevice?) {
        self.project = project
        self.device = device
    }
}

extension PushEmulatorCore {
    /// The device of APNs token `token` in `project`: success (with the device), Unregistered or
    /// DeviceTokenNotForTopic, or nil when the project never had it. `inout` only so that the
    /// project is read in place.
    fileprivate static func lookUp(
        _ token: String, bundleID: String?, in project: inout ProjectState, slot: ProjectSlot
    ) -> Result<KnownDevice?, APNsRecipientError>? {
        if let fcmToken = project.tokenByAPNsToken[token] {
            let device = KnownDevice(token: fcmToken, in: slot)
            if let slot = project.devices.index(forKey: device.key) {
                let deviceBundleID = ProjectState.read(&project.devices.values[slot]) { $0.bundleID }
                if let bundleID, deviceBundleID != bundleID { return .failure(.notForTopic) }
                return .success(device)
            }
        }
        return project.uninstalledAPNsTokens[token].map { .failure(.unregistered(since: $0)) }
    }
}

/// Why an APNs send finds no device to queue for.
public enum APNsRecipientError: Error, Sendable, Equatable {
    /// The device was deleted (the app uninstalled) at this time: 410 Unregistered.
    case unregistered(since: Timestamp)
    /// The device's bundle id is not the topic's: 400 DeviceTokenNotForTopic.
    case notForTopic
}
