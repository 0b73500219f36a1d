/// All mutable state of the emulator's domain; `PushEmulatorCore` holds it behind one lock.
struct CoreState {
    let configuration: PushCoreConfiguration
    var clock: EmulatorClock
    var random: any RandomNumberGenerator & Sendable
    var messageIDs: MessageIDGenerator
    var nextDeliveryNumber = 1
    var nextSubscriberID = 1
    var projects: [String: ProjectState] = [:]

    init(configuration: PushCoreConfiguration, clock: EmulatorClock, random: any RandomNumberGenerator & Sendable) {
        self.configuration = configuration
        self.clock = clock
        self.random = random
        self.messageIDs = MessageIDGenerator(wallTimeMilliseconds: clock.wallTime())
    }

    func senderID(forProject projectID: String) -> String {
        configuration.senderID ?? SenderID.derived(fromProjectID: projectID)
    }

    /// A generated registration token no device of the project uses.
    mutating func unusedToken(in project: ProjectState) -> String {
        while true {
            let token = RegistrationToken.generate(using: &random)
            if project.devices[token] == nil, project.uninstalledTokens[token] == nil { return token }
        }
    }
}
