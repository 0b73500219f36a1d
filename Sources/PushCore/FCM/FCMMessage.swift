import ByteCoding

/// An FCM HTTP v1 `Message`, parsed and validated; what `messages:send` delivers.
public struct FCMMessage: Sendable, Equatable {
    /// Where it goes.
    public var target: MessageTarget
    // The optional parts here and in the configs are spelled `Optional<…>`: a `var` declared
    // `T?` starts out nil implicitly, and with that default the initializers build the value
    // in a temporary, copy it out and destroy the temporary, on every decoded send.
    /// Custom key-value pairs, in the order sent.
    public var data: [FCMStringPair]
    /// The cross-platform notification.
    public var notification: Optional<FCMNotification>
    /// Android options.
    public var android: Optional<FCMAndroidConfig> {
        get { boxedAndroid?.value }
        set { boxedAndroid = newValue.map(Boxed.init) }
    }
    /// Web Push options.
    public var webpush: Optional<FCMWebpushConfig> {
        get { boxedWebpush?.value }
        set { boxedWebpush = newValue.map(Boxed.init) }
    }
    // Android and Web Push options are large and, in sends to Apple devices, rare: boxed, they
    // leave the message 176 bytes instead of about 300, which every copy of a decoded request moves.
    private var boxedAndroid: Optional<Boxed<FCMAndroidConfig>>
    private var boxedWebpush: Optional<Boxed<FCMWebpushConfig>>
    /// Apple options.
    public var apns: Optional<FCMApnsConfig>
    /// Cross-platform options.
    public var fcmOptions: Optional<FCMOptions>

    /// Makes a message.
    public init(
        target: MessageTarget, data: [FCMStringPair] = [], notification: FCMNotification? = nil,
        android: FCMAndroidConfig? = nil, webpush: FCMWebpushConfig? = nil, apns: FCMApnsConfig? = nil,
        fcmOptions: FCMOptions? = nil
    ) {
        self.target = target
        self.data = data
        self.notification = notification
        self.boxedAndroid = android.map(Boxed.init)
        self.boxedWebpush = webpush.map(Boxed.init)
        self.apns = apns
        self.fcmOptions = fcmOptions
    }

    /// The size limit of a message to a topic, in bytes.
    public static let topicPayloadSizeLimit = 2048
    /// FCM's limit of a message to an Android or web device, in bytes ("The maximum payload for
    /// both message types is 4096 bytes"); what counts is `AndroidConversion.measuredConversion`'s count and
    /// `WebPushMessage.payloadByteCount`.
    public static let devicePayloadSizeLimit = 4096

    /// The bytes that count toward the topic limit: keys and values of `data`, and the
    /// notification's title, body and image. Google does not say exactly what it counts;
    /// this follows fcm-v1.md ("keys and values counted").
    public var topicPayloadByteCount: Int {
        let dataBytes = data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        let notificationBytes = [notification?.title, notification?.body, notification?.image]
            .reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        return dataBytes + notificationBytes
    }

    /// Builds a message from the canonical JSON `FCMProtoJSONMapper` wrote (snake_case keys,
    /// types already checked). Fails only when no target is set.
    init(canonical json: JSONObject) throws(GoogleError) {
        let target: MessageTarget
        if let token = json["token"]?.stringValue {
            target = .token(token)
        } else if let topic = json["topic"]?.stringValue {
            target = .topic(topic)
        } else if let condition = json["condition"]?.stringValue {
            target = .condition(condition)
        } else if let fid = json["fid"]?.stringValue {
            target = .fid(fid)
        } else {
            throw GoogleError.fcmInvalidArgument("Recipient of the message is not set.", field: "message")
        }
        self.init(target: target, data: FCMStringPair.pairs(of: json["data"]))
        if let object = json["notification"]?.objectValue {
            notification = FCMNotification(
                title: object["title"]?.stringValue, body: object["body"]?.stringValue,
                image: object["image"]?.stringValue)
        }
        if let object = json["android"]?.objectValue {
            android = FCMAndroidConfig(
                collapseKey: object["collapse_key"]?.stringValue,
                priority: object["priority"]?.stringValue.flatMap(FCMAndroidConfig.Priority.init(rawValue:)),
                ttl: object["ttl"]?.stringValue.flatMap { try? GoogleDuration(parsing: $0) },
                restrictedPackageName: object["restricted_package_name"]?.stringValue,
                data: FCMStringPair.pairs(of: object["data"]),
                notification: object["notification"]?.objectValue,
                fcmOptions: object["fcm_options"]?.objectValue.map {
                    FCMOptions(analyticsLabel: $0["analytics_label"]?.stringValue)
                },
                directBootOk: object["direct_boot_ok"]?.boolValue ?? false,
                bandwidthConstrainedOk: object["bandwidth_constrained_ok"]?.boolValue ?? false,
                restrictedSatelliteOk: object["restricted_satellite_ok"]?.boolValue ?? false)
        }
        if let object = json["webpush"]?.objectValue {
            webpush = FCMWebpushConfig(
                headers: FCMStringPair.pairs(of: object["headers"]),
                data: FCMStringPair.pairs(of: object["data"]),
                notification: object["notification"]?.objectValue,
                fcmOptions: object["fcm_options"]?.objectValue.map {
                    FCMWebpushConfig.Options(
                        link: $0["link"]?.stringValue, analyticsLabel: $0["analytics_label"]?.stringValue)
                })
        }
        if let object = json["apns"]?.objectValue {
            apns = FCMApnsConfig(
                headers: FCMStringPair.pairs(of: object["headers"]),
                payload: object["payload"]?.objectValue,
                fcmOptions: object["fcm_options"]?.objectValue.map {
                    FCMApnsConfig.Options(
                        analyticsLabel: $0["analytics_label"]?.stringValue, image: $0["image"]?.stringValue)
                },
                liveActivityToken: object["live_activity_token"]?.stringValue)
        }
        if let object = json["fcm_options"]?.objectValue {
            fcmOptions = FCMOptions(analyticsLabel: object["analytics_label"]?.stringValue)
        }
    }
}
