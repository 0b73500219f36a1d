/// The APNs provider API's way in: its path names a device token, not a project.
extension PushEmulatorCore {
    /// Where an APNs send goes: the project of the device with this APNs token and the topic's
    /// bundle id — looked for in `defaultProject` first, then in the others that hold the token,
    /// by name (`projectsByAPNsToken`: the cost does not grow with the number of projects) — or,
    /// for a token no device has, `defaultProject` (where lenient mode registers it); with the
    /// device found, for `send(knownDevice:)`.
    /// - Parameter environment: the environment of the host the push was sent to; a device
    ///   registered for the other one is not reached.
    /// - Returns: the project and device, or, when no project has such a device,
    ///   BadDeviceToken if one has a device with the token in the other environment, else
    ///   DeviceTokenNotForTopic if one has a device with the token and another bundle id, else
    ///   Unregistered (with the uninstall time) if one has deleted a device with the token.
    public func apnsRecipient(
        deviceToken: String, bundleID: String?, environment: APNsEnvironment = .development, defaultProject: String
    ) -> Result<APNsRecipient, APNsRecipientError> {
        do {
            let now = self.now
            let token = APNsDeviceToken.normalized(deviceToken)
            func lookup(in id: String) -> Result<APNsRecipient, APNsRecipientError>? {
                while let slot = directory.slot(id) {
                    // Nil only when the project was removed meanwhile: look again.
                    guard let found = Self.lookUp(token, bundleID: bundleID, environment: environment, now: now, in: slot)
                    else { continue }
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
                    // A device that has the token says more than an uninstalled one.
                    if refusal == nil || reason == .notForTopic || reason == .otherEnvironment { refusal = reason }
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
    /// The device of APNs token `token` in the project of `slot`: success (with the device; without
    /// one for a device uninstalled so lately that pushes are still accepted), Unregistered,
    /// BadDeviceToken or DeviceTokenNotForTopic, or `.some(nil)` when the project never had it;
    /// nil when the project was removed, to be asked again.
    fileprivate static func lookUp(
        _ token: String, bundleID: String?, environment: APNsEnvironment, now: Timestamp, in slot: ProjectSlot
    ) -> Result<KnownDevice?, APNsRecipientError>?? {
        // One digest of the APNs token finds its shard and its entry there, which has the
        // device's bundle id: the device's own shard is not locked here (the send checks there
        // that the device still has the APNs token).
        let key = TokenKey(token)
        return slot.readShard(DeviceShard.index(of: key)) { shard -> Result<KnownDevice?, APNsRecipientError>? in
            if let owner = shard.tokenByAPNsToken[key: key] {
                if let required = owner.environment, required != environment { return .failure(.otherEnvironment) }
                if let bundleID, owner.bundleID != bundleID { return .failure(.notForTopic) }
                return .success(KnownDevice(token: owner.token, in: slot))
            }
            return shard.uninstalledAPNsTokens[key: key].map { since in
                since > now ? .success(nil) : .failure(.unregistered(since: since))
            }
        }
    }
}

/// Why an APNs send finds no device to queue for.
public enum APNsRecipientError: Error, Sendable, Equatable {
    /// The device was deleted (the app uninstalled) at this time: 410 Unregistered.
    case unregistered(since: Timestamp)
    /// The device's bundle id is not the topic's: 400 DeviceTokenNotForTopic.
    case notForTopic
    /// The device's token is of the other APNs environment than the host's: 400 BadDeviceToken.
    case otherEnvironment
}
