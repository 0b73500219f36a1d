import ByteCoding

/// One app install (§2 of the spec).
public struct Device: Sendable, Equatable {
    /// The kind of install.
    public var platform: Platform
    /// The app's bundle id; the default `apns-topic` of its notifications.
    public var bundleID: String
    /// The FCM registration token that addresses it.
    public let token: String
    /// Its APNs device token (lowercase hex), if it has one.
    public let apnsToken: String?
    /// Where the app is; decides the presentation notes.
    public var appState: AppState
    /// Whether the app has a notification service extension that uses Firebase's helper
    /// (`FIRMessagingExtensionHelper`), which downloads `fcm_options.image` for a notification with
    /// `mutable-content`; without one, iOS shows no image. Default on (docs/inbox.md).
    public var hasNotificationServiceExtension = true
    /// How long after its uninstall sends to its tokens are still accepted, in seconds (nil: the
    /// emulator's `--unregister-after`), at most `longestUnregisterAfter`.
    public var unregisterAfterSeconds: Int64?
    /// The longest `unregisterAfterSeconds`: 100 years, as `--offline-limit`'s.
    public static let longestUnregisterAfter: Int64 = 36_500 * 86_400
    /// The APNs environment its token belongs to (nil: either, as a push to any host reaches it).
    public var apnsEnvironment: APNsEnvironment?
    /// An Android app's notification channels (nil: every channel a message names exists). A
    /// message for a channel not among them goes to the SDK's fallback channel.
    public var androidChannels: [String]?
    /// Whether a web app's service worker sets an `onBackgroundMessage` handler (default on).
    public var hasBackgroundHandler = true
    /// When it was registered.
    public let registeredAt: Timestamp
    /// When it last connected (or a stream of it closed); nil if never.
    public internal(set) var lastConnectedAt: Timestamp?
    /// Its topic subscriptions, by topic name.
    public internal(set) var subscriptions: [String: TopicSubscription] = [:]
    /// Stored deliveries (by number), oldest first, so in number order: one is found by
    /// bisection. Chunked: a device may hold every send of a long run.
    var pendingDeliveryNumbers = ChunkedArray<Int>()
    /// The sequences of the message log's entries that reached it, in log order: the log's
    /// `token` filter reads these rather than the whole log.
    var messageLogSequences = ChunkedArray<Int>()
    /// Whether a stream of it is open.
    public internal(set) var isConnected = false
    /// Deliveries given to its open streams that no stream has sent yet, by number: how many
    /// streams still carry each. They are `pending` until one is sent.
    var handedOver: [Int: Int] = [:]

    /// Deliveries thrown away since it last connected, owed as one `messagesDeleted` event.
    var owedDeletion: OwedDeletion?
    /// A `messagesDeleted` signal the device has yet to receive.
    struct OwedDeletion: Sendable, Equatable {
        /// The reason of the latest deletion.
        var reason: DeletionReason
        /// How many deliveries were deleted since the device last connected.
        var count: Int
    }

    /// Registration order within the project, for paging.
    let sequence: Int

    init(
        platform: Platform, bundleID: String, token: String, apnsToken: String?, appState: AppState,
        registeredAt: Timestamp, sequence: Int
    ) {
        self.platform = platform
        self.bundleID = bundleID
        self.token = token
        self.apnsToken = apnsToken
        self.appState = appState
        self.registeredAt = registeredAt
        self.sequence = sequence
    }

    /// Takes the app's settings of `other` (a reinstall keeps them): everything the API lets a
    /// device set but its app id and app state.
    mutating func takeSettings(of other: Device) {
        hasNotificationServiceExtension = other.hasNotificationServiceExtension
        androidChannels = other.androidChannels
        hasBackgroundHandler = other.hasBackgroundHandler
        apnsEnvironment = other.apnsEnvironment
        unregisterAfterSeconds = other.unregisterAfterSeconds
    }

    /// Topics it is subscribed to.
    public var topics: Set<String> { Set(subscriptions.keys) }

    /// How many deliveries are stored for it or on their way to it.
    public var pendingCount: Int { pendingDeliveryNumbers.count + handedOver.count }

    /// Takes the delivery numbered `number` out of the stored ones, if it is there.
    mutating func removePending(_ number: Int) {
        let found = pendingDeliveryNumbers.partitioningIndex { $0 >= number }
        guard found != pendingDeliveryNumbers.endIndex, pendingDeliveryNumbers[found] == number else { return }
        pendingDeliveryNumbers.remove(at: found)
    }

    /// Puts a delivery back in the pending queue, in number (send) order.
    mutating func insertPending(_ number: Int) {
        let found = pendingDeliveryNumbers.partitioningIndex { $0 >= number }
        guard found == pendingDeliveryNumbers.endIndex || pendingDeliveryNumbers[found] != number else { return }
        pendingDeliveryNumbers.insert(number, at: found)
    }

    /// How long an Android token lives without a connection before FCM expires it: 270 days
    /// (docs/android.md, "Token expiry").
    public static let androidTokenLifetimeSeconds: Int64 = 270 * 86_400

    /// When the device's token expires unless it connects before: an Android device not connected
    /// expires `androidTokenLifetimeSeconds` after `offlineSince`; nil for any other.
    public var tokenExpiresAt: Timestamp? {
        guard platform == .android, !isConnected else { return nil }
        return offlineSince.adding(seconds: Self.androidTokenLifetimeSeconds)
    }

    /// The instant its offline time counts from: the later of `lastConnectedAt` and `registeredAt`.
    public var offlineSince: Timestamp { max(lastConnectedAt ?? registeredAt, registeredAt) }

    /// The kind of app and its settings, as a conversion reads them.
    var app: DeliveryContext.AppKind {
        switch platform {
        case .ios: .ios
        case .android: .android(channels: androidChannels)
        case .web: .web(hasBackgroundHandler: hasBackgroundHandler)
        }
    }

    /// The device JSON of the admin API: the app id as `bundleId`, and again under its
    /// platform's own name (`packageName`, `origin`), with that platform's settings.
    public var json: JSONValue {
        var members = [
            JSONObject.Member(key: "token", value: .string(token)),
            JSONObject.Member(key: "platform", value: .string(platform.rawValue)),
            JSONObject.Member(key: "bundleId", value: .string(bundleID)),
            JSONObject.Member(key: "apnsToken", value: apnsToken.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "appState", value: .string(appState.rawValue)),
            JSONObject.Member(key: "unregisterAfter", value: unregisterAfterSeconds.map { .number(String($0)) } ?? .null),
        ]
        switch platform {
        case .ios:
            members += [
                JSONObject.Member(key: "apnsEnvironment", value: apnsEnvironment.map { .string($0.rawValue) } ?? .null),
                JSONObject.Member(key: "notificationServiceExtension", value: .bool(hasNotificationServiceExtension)),
            ]
        case .android:
            members += [
                JSONObject.Member(key: "packageName", value: .string(bundleID)),
                JSONObject.Member(key: "channels", value: androidChannels.map { .array($0.map(JSONValue.string)) } ?? .null),
            ]
        case .web:
            members += [
                JSONObject.Member(key: "origin", value: .string(bundleID)),
                JSONObject.Member(key: "backgroundHandler", value: .bool(hasBackgroundHandler)),
            ]
        }
        return .object(JSONObject(members + [
            JSONObject.Member(key: "topics", value: .array(subscriptions.keys.sorted().map(JSONValue.string))),
            JSONObject.Member(key: "pendingCount", value: .number(String(pendingCount))),
            JSONObject.Member(key: "inFlightCount", value: .number(String(handedOver.count))),
            JSONObject.Member(key: "connected", value: .bool(isConnected)),
            JSONObject.Member(key: "registeredAt", value: .string(registeredAt.rfc3339)),
            JSONObject.Member(key: "lastConnectedAt", value: lastConnectedAt.map { .string($0.rfc3339) } ?? .null),
        ] + (tokenExpiresAt.map { [JSONObject.Member(key: "tokenExpiresAt", value: .string($0.rfc3339))] } ?? [])))
    }
}
