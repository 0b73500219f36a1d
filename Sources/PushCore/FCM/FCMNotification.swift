/// `message.notification`: the cross-platform notification.
public struct FCMNotification: Sendable, Equatable {
    /// The title, if set.
    public var title: Optional<String>
    /// The body text, if set.
    public var body: Optional<String>
    /// An image URL, if set.
    public var image: Optional<String>

    /// Makes a notification.
    public init(title: String? = nil, body: String? = nil, image: String? = nil) {
        self.title = title
        self.body = body
        self.image = image
    }
}
