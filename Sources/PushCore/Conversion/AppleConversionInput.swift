import ByteCoding

/// The parts of an FCM message that decide what an Apple device receives, plus what the
/// emulator knows at send time. The FCM request model maps into this.
public struct AppleConversionInput: Sendable {
    // The optional parts are spelled `Optional<…>` because a `var` declared `T?` starts out nil
    // implicitly, and with such a default the initializers build the input in a temporary and
    // copy it out: a retain and a release of every part on each send.
    /// `message.notification`, when present.
    public var notification: Optional<FCMNotification>
    /// `message.data`, in request order; the request model's own entries, so that a send shares
    /// them instead of copying.
    public var data: [FCMStringPair]
    /// `message.apns.headers`, in request order, names as sent; the request model's own entries,
    /// like `data`.
    public var apnsHeaders: [FCMStringPair]
    /// `message.apns.payload`, when present.
    public var apnsPayload: Optional<JSONObject>
    /// `message.apns.fcm_options.image`, when present.
    public var apnsImage: Optional<String>
    /// The `fid` target, when the message was addressed to one.
    public var fid: Optional<String>
    /// The message id (the last part of the message name).
    public var messageID: String {
        get {
            switch messageIDSource {
            case .given(let text): text
            case .generated(let number): DecimalDigits.string(of: number)
            }
        }
        set { messageIDSource = .given(newValue) }
    }
    /// `messageID` as it came: a send's id stays a number, whose digits the payload writes.
    var messageIDSource: MessageIDSource
    /// Where the message id comes from.
    enum MessageIDSource: Sendable {
        /// Text given by the caller.
        case given(String)
        /// The id of a send's message name.
        case generated(UInt64)
    }
    /// The project's numeric sender id.
    public var senderID: String
    /// The device's bundle id (the default `apns-topic`).
    public var bundleID: String
    /// The `apns-id` to use when the message does not set one.
    public var apnsID: String {
        get {
            switch defaultAPNsID {
            case .given(let text): text
            case .generated(let uuid): uuid.text
            }
        }
        set { defaultAPNsID = .given(newValue) }
    }
    /// `apnsID` as it came: a generated one stays bits, which the notification keeps so.
    var defaultAPNsID: DefaultAPNsID
    /// Where the `apns-id` used when the message sets none comes from.
    enum DefaultAPNsID: Sendable {
        /// Text given by the caller.
        case given(String)
        /// A UUID the emulator drew for this send.
        case generated(RandomUUID)
    }
    /// The emulator's time of the send (the default expiration counts from it).
    public var now: Timestamp

    /// Makes an input; only the send context is required.
    public init(
        notification: FCMNotification? = nil,
        data: [(key: String, value: String)] = [],
        apnsHeaders: [FCMStringPair] = [],
        apnsPayload: JSONObject? = nil,
        apnsImage: String? = nil,
        fid: String? = nil,
        messageID: String,
        senderID: String,
        bundleID: String,
        apnsID: String,
        now: Timestamp
    ) {
        self.notification = notification
        self.data = data.map { FCMStringPair($0.key, $0.value) }
        self.apnsHeaders = apnsHeaders
        self.apnsPayload = apnsPayload
        self.apnsImage = apnsImage
        self.fid = fid
        self.messageIDSource = .given(messageID)
        self.senderID = senderID
        self.bundleID = bundleID
        self.defaultAPNsID = .given(apnsID)
        self.now = now
    }

    /// An input for the device and send described by `context` (its message id, sender id,
    /// bundle id, fresh `apns-id` and time), with the message's own parts. `data` is taken as the
    /// request model's entries and every part is stored directly: each send makes one.
    public init(
        context: borrowing DeliveryContext,
        notification: FCMNotification? = nil,
        data: [FCMStringPair] = [],
        apnsHeaders: [FCMStringPair] = [],
        apnsPayload: JSONObject? = nil,
        apnsImage: String? = nil,
        fid: String? = nil
    ) {
        self.notification = notification
        self.data = data
        self.apnsHeaders = apnsHeaders
        self.apnsPayload = apnsPayload
        self.apnsImage = apnsImage
        self.fid = fid
        self.messageIDSource = .generated(context.messageName.id)
        self.senderID = context.senderID
        self.bundleID = context.bundleID
        self.defaultAPNsID = .generated(context.generatedAPNsID)
        self.now = context.now
    }
}
