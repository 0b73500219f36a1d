/// The rate limits a project's sends and topic subscriptions run under (docs/quotas.md); nil:
/// no limit. Each is at least 1.
public struct QuotaLimits: Sendable, Hashable {
    /// FCM messages (and client errors) per project per minute; Google's: 600,000.
    public var projectMessagesPerMinute: Int?
    /// FCM messages to one Android device per minute; Google's: 240.
    public var androidDevicePerMinute: Int?
    /// FCM messages to one Android device per hour; Google's: 5,000.
    public var androidDevicePerHour: Int?
    /// Notifications to one Apple device per minute, through APNs or FCM. Apple publishes no
    /// number: 240, as FCM's for Android, is ours.
    public var appleDevicePerMinute: Int?
    /// Topic subscriptions added or removed per project per second; Google's: 3,000.
    public var topicSubscriptionsPerSecond: Int?
    /// Collapsible messages to one Android app that go through at once before FCM delays them;
    /// Google's: 20. On only with `collapsibleRefillSeconds`.
    public var collapsibleBurst: Int?
    /// How often one more collapsible message may go through once the burst is spent; Google's:
    /// one every 180 seconds.
    public var collapsibleRefillSeconds: Int?

    /// Limits as given; nil for none.
    public init(
        projectMessagesPerMinute: Int? = nil, androidDevicePerMinute: Int? = nil, androidDevicePerHour: Int? = nil,
        appleDevicePerMinute: Int? = nil, topicSubscriptionsPerSecond: Int? = nil, collapsibleBurst: Int? = nil,
        collapsibleRefillSeconds: Int? = nil
    ) {
        self.projectMessagesPerMinute = projectMessagesPerMinute
        self.androidDevicePerMinute = androidDevicePerMinute
        self.androidDevicePerHour = androidDevicePerHour
        self.appleDevicePerMinute = appleDevicePerMinute
        self.topicSubscriptionsPerSecond = topicSubscriptionsPerSecond
        self.collapsibleBurst = collapsibleBurst
        self.collapsibleRefillSeconds = collapsibleRefillSeconds
    }

    /// No limit at all (`--quotas off`, the default).
    public static let off = QuotaLimits()

    /// The numbers Google documents, and ours for Apple (`--quotas google`).
    public static let google = QuotaLimits(
        projectMessagesPerMinute: 600_000, androidDevicePerMinute: 240, androidDevicePerHour: 5_000,
        appleDevicePerMinute: 240, topicSubscriptionsPerSecond: 3_000, collapsibleBurst: 20, collapsibleRefillSeconds: 180)

    /// Whether the collapsible burst and refill are both set or both not: one without the other
    /// means nothing, and is refused.
    public var isConsistent: Bool {
        (collapsibleBurst == nil) == (collapsibleRefillSeconds == nil)
    }

    /// Keeps the collapsible pair together after a change that named one of them alone: a number
    /// for one gives the other Google's value if it had none; null for one turns both off. A
    /// change that named both is left as it is (both set or both null, else inconsistent).
    public mutating func pairCollapsible(burstNamed: Bool, refillNamed: Bool) {
        guard burstNamed != refillNamed else { return }
        if burstNamed {
            if collapsibleBurst == nil {
                collapsibleRefillSeconds = nil
            } else if collapsibleRefillSeconds == nil {
                collapsibleRefillSeconds = Self.google.collapsibleRefillSeconds
            }
        } else if collapsibleRefillSeconds == nil {
            collapsibleBurst = nil
        } else if collapsibleBurst == nil {
            collapsibleBurst = Self.google.collapsibleBurst
        }
    }

    /// Whether no limit is set: sends then skip every quota check.
    public var isOff: Bool { self == .off }

    /// Whether any limit applies to a single device.
    var limitsDevices: Bool {
        androidDevicePerMinute != nil || androidDevicePerHour != nil || appleDevicePerMinute != nil || collapsible != nil
    }

    /// Collapsible-message throttling, when both its numbers are set.
    var collapsible: (burst: Int, refillSeconds: Int)? {
        guard let collapsibleBurst, let collapsibleRefillSeconds else { return nil }
        return (collapsibleBurst, collapsibleRefillSeconds)
    }

    /// Each limit by its name in the admin API and its option (`--quota-<kebab name>`).
    public static var names: [(name: String, keyPath: WritableKeyPath<QuotaLimits, Int?>)] {
        [
            ("projectMessagesPerMinute", \.projectMessagesPerMinute),
            ("androidDevicePerMinute", \.androidDevicePerMinute),
            ("androidDevicePerHour", \.androidDevicePerHour),
            ("appleDevicePerMinute", \.appleDevicePerMinute),
            ("topicSubscriptionsPerSecond", \.topicSubscriptionsPerSecond),
            ("collapsibleBurst", \.collapsibleBurst),
            ("collapsibleRefillSeconds", \.collapsibleRefillSeconds),
        ]
    }
}
