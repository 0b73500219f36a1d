import ByteCoding

/// A message as FCM's Android SDK receives it: the extras of the `RECEIVE` intent, in the order
/// FCM writes them (docs/android.md), and what the emulator's rules read from them.
public struct AndroidMessage: Sendable, Equatable {
    /// The intent's extras: every value a string.
    public var extras: [FCMStringPair]
    /// Whether it is a notification message (`gcm.notification.e` is `1`): shown by the SDK in the
    /// background, handed to `onMessageReceived` in the foreground.
    public var isNotification: Bool
    /// `collapse_key`: the package for a notification message, `android.collapse_key` for a data one.
    public var collapseKey: Optional<String>
    /// How long FCM keeps it for an offline device, in whole seconds (`google.ttl`).
    public var ttlSeconds: Int64
    /// `google.original_priority`: `high` or `normal`.
    public var priority: String

    /// Makes a message of these extras.
    public init(extras: [FCMStringPair], isNotification: Bool, collapseKey: String?, ttlSeconds: Int64, priority: String) {
        self.extras = extras
        self.isNotification = isNotification
        self.collapseKey = collapseKey
        self.ttlSeconds = ttlSeconds
        self.priority = priority
    }

    /// The extras as one JSON object, as a logging app would print them.
    public var extrasJSON: JSONValue {
        .object(JSONObject(extras.map { JSONObject.Member(key: $0.key, value: .string($0.value)) }))
    }

    /// The `RemoteMessage` the app's `onMessageReceived` gets, as its getters read these extras.
    public var remoteMessage: JSONValue { RemoteMessageGetters.json(of: extras) }
}
