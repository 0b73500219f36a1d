import ByteCoding

/// `message.webpush`.
public struct FCMWebpushConfig: Sendable, Equatable {
    /// `webpush.fcm_options`.
    public struct Options: Sendable, Equatable {
        /// The URL opened on click.
        public var link: Optional<String>
        /// The analytics label.
        public var analyticsLabel: Optional<String>

        /// Makes options.
        public init(link: String? = nil, analyticsLabel: String? = nil) {
            self.link = link
            self.analyticsLabel = analyticsLabel
        }
    }

    /// Web Push protocol headers, such as `TTL`.
    public var headers: [FCMStringPair]
    /// Replaces `message.data` for web clients when set.
    public var data: [FCMStringPair]
    /// The Web Notification options, kept as given.
    public var notification: Optional<JSONObject>
    /// Web options.
    public var fcmOptions: Optional<Options>

    /// Makes a configuration.
    public init(
        headers: [FCMStringPair] = [], data: [FCMStringPair] = [], notification: JSONObject? = nil,
        fcmOptions: Options? = nil
    ) {
        self.headers = headers
        self.data = data
        self.notification = notification
        self.fcmOptions = fcmOptions
    }
}
