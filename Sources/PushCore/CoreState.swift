/// All mutable state of the emulator's domain; `PushEmulatorCore` holds it behind one lock.
struct CoreState {
    let configuration: PushCoreConfiguration
    var clock: EmulatorClock
    var identifiers: IdentifierSource
    var nextSubscriberID = 1
    var projects: [String: ProjectState] = [:]
    /// Faults fired since the start, by the API of the send they answered (kept through resets:
    /// `/metrics` counts them).
    var faultsFired: [DeliveryOrigin: Int] = [:]

    init(configuration: PushCoreConfiguration, clock: EmulatorClock, random: any RandomNumberGenerator & Sendable) {
        self.configuration = configuration
        self.clock = clock
        self.identifiers = IdentifierSource(
            random: random, messageIDs: MessageIDGenerator(wallTimeMilliseconds: clock.wallTime()))
    }

    func senderID(forProject projectID: String) -> String {
        configuration.senderID ?? SenderID.derived(fromProjectID: projectID)
    }
}
