extension PushEmulatorCore {
    /// What a send to `target` would answer, changing nothing (FCM's `validate_only`): the
    /// target's status and, when it is deliverable, the conversion's verdict — the message is
    /// converted once, under the context the next send would have (its message id, the
    /// project's sender id, the device's bundle id), so that a message too big after conversion
    /// is rejected here as the send would reject it. Registers, numbers and logs nothing.
    public func checkSend<Failure: Error & Sendable>(
        project: String, target: MessageTarget,
        makeContent: (DeliveryContext) -> Result<DeliveryContent?, Failure>
    ) -> Result<TargetStatus, Failure> {
        let now = self.now
        func check(_ projectState: ProjectState) -> Result<TargetStatus, Failure> {
            var bundleID = configuration.defaultBundleID
            var app = DeliveryContext.AppKind.ios
            switch projectState.resolve(target, mode: configuration.tokenMode, now: now) {
            case .unreachable(let reason): return .success(.unreachable(reason))
            case .uninstalledLately(let token):
                // Checked as the send would check it: converted for the device as it was.
                if let device = token.flatMap(projectState.lingeringDevice) {
                    bundleID = device.bundleID
                    app = device.app
                }
            case .device(let shard, let position):
                bundleID = projectState.shards[shard].devices.values[position].bundleID
                app = projectState.shards[shard].devices.values[position].app
            case .devices, .newDevice: break
            }
            // The id the next send gets, left for it.
            let name = MessageName(project: project, id: counters.upcomingMessageID)
            // Any apns-id will do (it is a header, not part of the payload), and one from the
            // emulator's own generator would shift the ids later sends get.
            var placeholder = SeededRandomNumberGenerator(seed: 0)
            let context = DeliveryContext(
                messageName: name, bundleID: bundleID,
                senderID: configuration.senderID ?? projectState.derivedSenderID,
                generatedAPNsID: RandomUUID(using: &placeholder), now: now, app: app)
            return makeContent(context).map { _ in .deliverable }
        }
        return withProject(project) { check($0) } ?? check(ProjectState(projectID: project))
    }
}
