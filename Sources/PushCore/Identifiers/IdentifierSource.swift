/// Where new message ids, delivery numbers, registration tokens and `apns-id`s come from.
/// Kept apart from the projects in `CoreState` so that a send can change a project in place,
/// in its dictionary, while it draws from this.
struct IdentifierSource {
    var random: any RandomNumberGenerator & Sendable
    var messageIDs: MessageIDGenerator
    var nextDeliveryNumber = 1

    /// Message ids and delivery numbers start again as in a new emulator (`DELETE
    /// /emulator/v1/state`); the random source goes on.
    mutating func resetCounters(wallTimeMilliseconds: Int64) {
        messageIDs = MessageIDGenerator(wallTimeMilliseconds: wallTimeMilliseconds)
        nextDeliveryNumber = 1
    }

    /// A generated registration token no device of the project uses.
    mutating func unusedToken(in project: ProjectState) -> String {
        while true {
            let token = RegistrationToken.generate(using: &random)
            if project.devices[token] == nil, project.uninstalledTokens[token] == nil { return token }
        }
    }
}
