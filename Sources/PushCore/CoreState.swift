/// All mutable state of the emulator's domain; `PushEmulatorCore` holds it behind one lock.
struct CoreState {
    let configuration: PushCoreConfiguration
    var clock: EmulatorClock
    var identifiers: IdentifierSource
    var nextSubscriberID = 1
    var projects = ProjectTable()
    /// Faults fired since the start, by the API of the send they answered (kept through resets:
    /// `/metrics` counts them).
    var faultsFired: [DeliveryOrigin: Int] = [:]
    /// The projects holding each APNs device token (a device has it, or had it and was
    /// uninstalled): an APNs push names no project, and must not visit every project to find its
    /// device. Kept by `CoreState+Indexes`.
    var projectsByAPNsToken = TokenTable<ProjectIDSet>()
    /// The projects with a `serviceAccount` fault for each email: a token request names no
    /// project either. Keyed by `String` (not `TokenTable`): an email may be any text.
    var projectsByFaultedServiceAccount: [String: ProjectIDSet] = [:]
    /// How many faults the projects hold together: sends skip the lock while it is zero.
    var faultCount = 0

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
