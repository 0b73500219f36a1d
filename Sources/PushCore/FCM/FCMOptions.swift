/// `fcm_options` with only an analytics label (`message.fcm_options`, `android.fcm_options`).
public struct FCMOptions: Sendable, Equatable {
    /// The analytics label, `[a-zA-Z0-9-_.~%]{1,50}`.
    public var analyticsLabel: Optional<String>

    /// Makes options.
    public init(analyticsLabel: String? = nil) {
        self.analyticsLabel = analyticsLabel
    }
}
