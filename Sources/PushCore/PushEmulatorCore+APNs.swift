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
        let now = self.now
        let token = APNsDeviceToken.normalized(deviceToken)
        // Registration keeps an APNs token unique within a project only: a device that can take
        // the push wins over another project's device uninstalled a moment ago (whose pushes are
        // still accepted), which wins over a deleted device or a device of another app.
        var lately: String?
        var refusal: APNsRecipientError?
        func found(in id: String) -> APNsRecipient? {
            while let slot = directory.slot(id) {
                // Nil only when the project was removed meanwhile: look again.
                guard let found = Self.lookUp(token, bundleID: bundleID, environment: environment, now: now, in: slot)
                else { continue }
                switch found {
                case .device(let device): return APNsRecipient(project: id, device: device)
                case .uninstalledLately: if lately == nil { lately = id }
                case .refused(let reason):
                    // A device that has the token says more than an uninstalled one.
                    if refusal == nil || reason == .notForTopic || reason == .otherEnvironment { refusal = reason }
                case .absent: break
                }
                return nil
            }
            return nil
        }
        if let recipient = found(in: defaultProject) { return .success(recipient) }
        for id in indexes.projects(holdingAPNsToken: token) where id != defaultProject {
            if let recipient = found(in: id) { return .success(recipient) }
        }
        if let lately { return .success(APNsRecipient(project: lately, device: nil)) }
        if let refusal { return .failure(refusal) }
        return .success(APNsRecipient(project: defaultProject, device: nil))
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

/// Why an APNs send finds no device to queue for.
public enum APNsRecipientError: Error, Sendable, Equatable {
    /// The device was deleted (the app uninstalled) and its token is unregistered from this
    /// time: 410 Unregistered.
    case unregistered(since: Timestamp)
    /// The device's bundle id is not the topic's: 400 DeviceTokenNotForTopic.
    case notForTopic
    /// The device's token is of the other APNs environment than the host's: 400 BadDeviceToken.
    case otherEnvironment
}

extension PushEmulatorCore {
    /// What the project of `slot` has for APNs token `token`.
    fileprivate enum Found {
        /// A device has it (reached with this shard's lock only: the send checks it again).
        case device(KnownDevice)
        /// A device uninstalled so lately that pushes to it are still accepted, of this topic
        /// and environment.
        case uninstalledLately
        case refused(APNsRecipientError)
        /// The project never had it.
        case absent
    }

    /// What the project of `slot` has for APNs token `token`; nil when the project was removed,
    /// to be asked again.
    fileprivate static func lookUp(
        _ token: String, bundleID: String?, environment: APNsEnvironment, now: Timestamp, in slot: ProjectSlot
    ) -> Found? {
        // One digest of the APNs token finds its shard and its entry there, which has the
        // device's bundle id and environment: the device's own shard is not locked here.
        let key = TokenKey(token)
        return slot.readShard(DeviceShard.index(of: key)) { shard -> Found in
            func checked(_ owner: APNsTokenOwner) -> APNsRecipientError? {
                if let required = owner.environment, required != environment { return .otherEnvironment }
                if let bundleID, owner.bundleID != bundleID { return .notForTopic }
                return nil
            }
            if let owner = shard.tokenByAPNsToken[key: key] {
                if let refused = checked(owner) { return .refused(refused) }
                return .device(KnownDevice(token: owner.token, in: slot))
            }
            guard let since = shard.uninstalledAPNsTokens[key: key] else { return .absent }
            if since > now {
                // The device as it was (none after an import: then unchecked).
                if let owner = shard.lingeringAPNsOwners[key: key], let refused = checked(owner) { return .refused(refused) }
                return .uninstalledLately
            }
            return .refused(.unregistered(since: since))
        }
    }
}
