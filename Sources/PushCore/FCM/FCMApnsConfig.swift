import ByteCoding

/// `message.apns`: what the FCM → APNs conversion starts from.
public struct FCMApnsConfig: Sendable, Equatable {
    /// `apns.fcm_options`.
    public struct Options: Sendable, Equatable {
        /// The analytics label.
        public var analyticsLabel: Optional<String>
        /// An image URL; overrides `notification.image` for Apple devices.
        public var image: Optional<String>

        /// Makes options.
        public init(analyticsLabel: String? = nil, image: String? = nil) {
            self.analyticsLabel = analyticsLabel
            self.image = image
        }
    }

    /// APNs request headers (`apns-priority`, `apns-expiration`, ...) in the order sent;
    /// names as sent, values checked to be strings.
    public var headers: [FCMStringPair]
    /// The APNs payload (`aps` and custom keys), kept exactly as given.
    public var payload: Optional<JSONObject>
    /// Apple options.
    public var fcmOptions: Optional<Options>
    /// An ActivityKit push token, for Live Activity updates.
    public var liveActivityToken: Optional<String>

    /// Makes a configuration.
    public init(
        headers: [FCMStringPair] = [], payload: JSONObject? = nil, fcmOptions: Options? = nil,
        liveActivityToken: String? = nil
    ) {
        self.headers = headers
        self.payload = payload
        self.fcmOptions = fcmOptions
        self.liveActivityToken = liveActivityToken
    }
}
