/// FCM's limits on topics.
public enum TopicLimits {
    /// Topics one app instance may be subscribed to.
    public static let maximumTopicsPerDevice = 2000
    /// Tokens one Instance ID batch request may carry.
    public static let maximumBatchSize = 1000
    /// Characters of a topic name.
    public static let maximumNameLength = TopicNameCharacter.maximumNameLength

    /// True for `[a-zA-Z0-9-_.~%]{1,900}`: the one topic name rule (`TopicNameCharacter`).
    public static func isValidName(_ name: String) -> Bool {
        TopicNameCharacter.isValidName(name)
    }
}
