/// All mutable state of the emulator's domain; `PushEmulatorCore` holds it behind one lock.
struct CoreState {
    let configuration: PushCoreConfiguration
    var clock: EmulatorClock
    var identifiers: IdentifierSource
    var nextSubscriberID = 1
    var projects: [String: ProjectState] = [:]

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
