import ByteCoding

/// Decodes a send request body straight into `FCMSendRequest`, in one pass over the bytes.
///
/// The general path builds a `JSONValue` tree, maps it to a canonical tree and then reads the
/// message out of that; for the bodies clients actually send, most of a send's decoding cost
/// is in building and releasing those trees. This decoder handles only the usual shapes and
/// gives up ("not sure", nil) at the first thing it does not: an unknown or repeated field,
/// `null`, a number, a list, a wrong type, a key with escapes, a second target, a message the
/// rules reject. The general path then answers, with Google's exact error if there is one.
///
/// When it answers, it answers what the general path would: it reads with the same
/// `JSONReader`, knows fields by `FCMSchema`'s names, leaves proto3 defaults unset as the
/// mapper does, maps `android.notification` with the mapper itself, and runs `validate()`.
/// `FCMSendRequestFastDecoderTests` and `Tests/Fuzz/FCMSendRequestDecoderFuzz.swift` check it.
struct FCMSendRequestFastDecoder {
    /// Why the decoder gave up: nothing, the general path says what is wrong.
    struct Unsure: Error {}

    private var reader: JSONReader

    /// Decodes the request `body` holds into `request`, a request with nothing set but its
    /// placeholder target; false, with `request` in any state, when the general path must decide.
    static func decode(_ body: borrowing [UInt8], into request: inout FCMSendRequest) -> Bool {
        JSONReader.reading(body, maxDepth: JSONParser.defaultMaxDepth) { reader in
            var decoder = FCMSendRequestFastDecoder(reader: reader)
            do throws(Unsure) {
                try decoder.request(into: &request)
                return true
            } catch {
                return false
            }
        }
    }

    // MARK: Messages

    // Each message's fields, named by their proto names: the key tables match them to FCMSchema,
    // and search them in the order declared here, the fields most bodies carry first.
    private enum RequestKey: String, CaseIterable, Sendable {
        case message, validateOnly = "validate_only"
    }
    private enum MessageKey: String, CaseIterable, Sendable {
        case token, data, notification, apns, android, topic, webpush, fcmOptions = "fcm_options"
        case condition, fid, name
    }
    private enum NotificationKey: String, CaseIterable, Sendable { case title, body, image }
    private enum AndroidKey: String, CaseIterable, Sendable {
        case collapseKey = "collapse_key", priority, ttl, restrictedPackageName = "restricted_package_name"
        case data, notification, fcmOptions = "fcm_options", directBootOk = "direct_boot_ok"
        case bandwidthConstrainedOk = "bandwidth_constrained_ok", restrictedSatelliteOk = "restricted_satellite_ok"
    }
    private enum WebpushKey: String, CaseIterable, Sendable {
        case headers, data, notification, fcmOptions = "fcm_options"
    }
    private enum WebpushOptionsKey: String, CaseIterable, Sendable { case link, analyticsLabel = "analytics_label" }
    private enum ApnsKey: String, CaseIterable, Sendable {
        case headers, payload, fcmOptions = "fcm_options", liveActivityToken = "live_activity_token"
    }
    private enum ApnsOptionsKey: String, CaseIterable, Sendable { case analyticsLabel = "analytics_label", image }
    private enum OptionsKey: String, CaseIterable, Sendable { case analyticsLabel = "analytics_label" }

    private static let requestKeys = FCMFastKeyTable<RequestKey>(FCMSchema.sendMessageRequest)
    private static let messageKeys = FCMFastKeyTable<MessageKey>(FCMSchema.message)
    private static let notificationKeys = FCMFastKeyTable<NotificationKey>(FCMSchema.notification)
    private static let androidKeys = FCMFastKeyTable<AndroidKey>(FCMSchema.androidConfig)
    private static let webpushKeys = FCMFastKeyTable<WebpushKey>(FCMSchema.webpushConfig)
    private static let webpushOptionsKeys = FCMFastKeyTable<WebpushOptionsKey>(FCMSchema.webpushFcmOptions)
    private static let apnsKeys = FCMFastKeyTable<ApnsKey>(FCMSchema.apnsConfig)
    private static let apnsOptionsKeys = FCMFastKeyTable<ApnsOptionsKey>(FCMSchema.apnsFcmOptions)
    private static let optionsKeys = FCMFastKeyTable<OptionsKey>(FCMSchema.fcmOptions)
    private static let androidOptionsKeys = FCMFastKeyTable<OptionsKey>(FCMSchema.androidFcmOptions)

    /// Nesting of the members of `message.android`, `message.apns` and `message.webpush`, as the
    /// parser counts it: the reader checks the depth limit for their struct values.
    private static let configMemberDepth = 3

    private mutating func request(into request: inout FCMSendRequest) throws(Unsure) {
        var hasMessage = false
        try object(Self.requestKeys, into: &request) { (decoder, request, key) throws(Unsure) in
            switch key {
            case .validateOnly: request.validateOnly = try decoder.bool()
            case .message:
                try decoder.message(into: &request.message)
                hasMessage = true
            }
        }
        reader.skipWhitespace()
        guard reader.atEnd, hasMessage else { throw Unsure() }
        do throws(GoogleError) {
            try request.message.validate()
        } catch {
            throw Unsure()
        }
    }

    /// Decodes a message into `message`, a message with nothing set but its placeholder target.
    private mutating func message(into message: inout FCMMessage) throws(Unsure) {
        var hasTarget = false
        try object(Self.messageKeys, into: &message) { (decoder, message, key) throws(Unsure) in
            switch key {
            case .name: _ = try decoder.string()
            case .data: message.data = try decoder.stringMap()
            case .notification: message.notification = try decoder.notification()
            case .android: message.android = try decoder.android()
            case .webpush: message.webpush = try decoder.webpush()
            case .apns: message.apns = try decoder.apns()
            case .fcmOptions: message.fcmOptions = try decoder.options(Self.optionsKeys)
            case .token, .topic, .condition, .fid:
                // A second member of the oneof is an error; an empty one is set, unlike other strings.
                guard !hasTarget else { throw Unsure() }
                hasTarget = true
                let text = try decoder.string()
                switch key {
                case .token: message.target = .token(text)
                case .topic: message.target = .topic(text)
                case .condition: message.target = .condition(text)
                default: message.target = .fid(text)
                }
            }
        }
        guard hasTarget else { throw Unsure() }
    }

    private mutating func notification() throws(Unsure) -> FCMNotification {
        var notification = FCMNotification()
        try object(Self.notificationKeys, into: &notification) { (decoder, notification, key) throws(Unsure) in
            let text = try decoder.optionalString()
            switch key {
            case .title: notification.title = text
            case .body: notification.body = text
            case .image: notification.image = text
            }
        }
        return notification
    }

    private mutating func options(_ keys: FCMFastKeyTable<OptionsKey>) throws(Unsure) -> FCMOptions {
        var options = FCMOptions()
        try object(keys, into: &options) { (decoder, options, key) throws(Unsure) in
            switch key {
            case .analyticsLabel: options.analyticsLabel = try decoder.optionalString()
            }
        }
        return options
    }

    private mutating func android() throws(Unsure) -> FCMAndroidConfig {
        var android = FCMAndroidConfig()
        try object(Self.androidKeys, into: &android) { (decoder, android, key) throws(Unsure) in
            switch key {
            case .collapseKey: android.collapseKey = try decoder.optionalString()
            case .priority: android.priority = try decoder.priority()
            case .ttl:
                // An empty string is no duration: the mapper reports it.
                let text = try decoder.string()
                do throws(GoogleDuration.FormatError) {
                    android.ttl = try GoogleDuration(parsing: text)
                } catch {
                    throw Unsure()
                }
            case .restrictedPackageName: android.restrictedPackageName = try decoder.optionalString()
            case .data: android.data = try decoder.stringMap()
            case .notification:
                let object = try decoder.structObject()
                var mapper = FCMProtoJSONMapper()
                let canonical = mapper.mapMessage(
                    object, as: FCMSchema.androidNotification, path: "message.android.notification")
                guard mapper.violations.isEmpty else { throw Unsure() }
                android.notification = canonical
            case .fcmOptions: android.fcmOptions = try decoder.options(Self.androidOptionsKeys)
            case .directBootOk: android.directBootOk = try decoder.bool()
            case .bandwidthConstrainedOk: android.bandwidthConstrainedOk = try decoder.bool()
            case .restrictedSatelliteOk: android.restrictedSatelliteOk = try decoder.bool()
            }
        }
        return android
    }

    /// `AndroidMessagePriority` by name, in any ASCII case; anything else (a number, another
    /// spelling) is left to the mapper.
    private mutating func priority() throws(Unsure) -> FCMAndroidConfig.Priority {
        let text = try string()
        for priority in [FCMAndroidConfig.Priority.normal, .high]
        where Self.equalIgnoringASCIICase(text, priority.rawValue) {
            return priority
        }
        throw Unsure()
    }

    private static func equalIgnoringASCIICase(_ text: String, _ upper: String) -> Bool {
        text.utf8.count == upper.utf8.count
            && zip(text.utf8, upper.utf8).allSatisfy { $0 == $1 || ($0 >= 0x61 && $0 <= 0x7A && $0 - 0x20 == $1) }
    }

    private mutating func webpush() throws(Unsure) -> FCMWebpushConfig {
        var webpush = FCMWebpushConfig()
        try object(Self.webpushKeys, into: &webpush) { (decoder, webpush, key) throws(Unsure) in
            switch key {
            case .headers: webpush.headers = try decoder.stringMap()
            case .data: webpush.data = try decoder.stringMap()
            case .notification: webpush.notification = try decoder.structObject()
            case .fcmOptions:
                var options = FCMWebpushConfig.Options()
                try decoder.object(Self.webpushOptionsKeys, into: &options) { (decoder, options, key) throws(Unsure) in
                    switch key {
                    case .link: options.link = try decoder.optionalString()
                    case .analyticsLabel: options.analyticsLabel = try decoder.optionalString()
                    }
                }
                webpush.fcmOptions = options
            }
        }
        return webpush
    }

    private mutating func apns() throws(Unsure) -> FCMApnsConfig {
        var apns = FCMApnsConfig()
        try object(Self.apnsKeys, into: &apns) { (decoder, apns, key) throws(Unsure) in
            switch key {
            case .headers: apns.headers = try decoder.stringMap()
            case .payload: apns.payload = try decoder.structObject()
            case .fcmOptions:
                var options = FCMApnsConfig.Options()
                try decoder.object(Self.apnsOptionsKeys, into: &options) { (decoder, options, key) throws(Unsure) in
                    switch key {
                    case .analyticsLabel: options.analyticsLabel = try decoder.optionalString()
                    case .image: options.image = try decoder.optionalString()
                    }
                }
                apns.fcmOptions = options
            case .liveActivityToken: apns.liveActivityToken = try decoder.optionalString()
            }
        }
        return apns
    }

    // MARK: Values

    /// Reads an object whose keys `keys` must all name, each once, calling `member` at each value
    /// to store it in `value`. The value goes through the call rather than being captured by
    /// `member`: a captured value is copied out at the end, a struct of strings and arrays
    /// retained and released again.
    private mutating func object<Key, Value>(
        _ keys: FCMFastKeyTable<Key>, into value: inout Value, _ member: (inout Self, inout Value, Key) throws(Unsure) -> Void
    ) throws(Unsure) {
        try expect(UInt8(ascii: "{"))
        reader.skipWhitespace()
        if next(is: UInt8(ascii: "}")) { return }
        // A field seen twice, by one name or by its two, is for the general path to report.
        var seen: UInt64 = 0
        repeat {
            let position = try knownKey(keys)
            guard seen & (1 << position) == 0 else { throw Unsure() }
            seen |= 1 << position
            try expect(UInt8(ascii: ":"))
            try member(&self, &value, keys.keys[position])
        } while try commaOrEnd(closing: UInt8(ascii: "}"))
    }

    /// Reads a key: plain ASCII without escapes, one of `keys`.
    private mutating func knownKey<Key>(_ keys: FCMFastKeyTable<Key>) throws(Unsure) -> Int {
        guard let position = keys.position(readingKeyWith: &reader) else { throw Unsure() }
        return position
    }

    /// A string; escapes and UTF-8 are the reader's, as for the general path.
    private mutating func string() throws(Unsure) -> String {
        reader.skipWhitespace()
        guard reader.nextByte == UInt8(ascii: "\"") else { throw Unsure() }
        do throws(JSONParseError) {
            return try reader.parseString()
        } catch {
            throw Unsure()
        }
    }

    /// A string field outside a oneof: empty is proto3's default, which the mapper leaves unset.
    private mutating func optionalString() throws(Unsure) -> String? {
        let text = try string()
        return text.isEmpty ? nil : text
    }

    private mutating func bool() throws(Unsure) -> Bool {
        reader.skipWhitespace()
        let value: Bool
        switch reader.nextByte {
        case UInt8(ascii: "t"): value = true
        case UInt8(ascii: "f"): value = false
        default: throw Unsure()
        }
        do throws(JSONParseError) {
            try reader.expectWord(value ? "true" : "false")
        } catch {
            throw Unsure()
        }
        return value
    }

    /// A `map<string, string>`, in order; a key given twice is the parser's error to report.
    private mutating func stringMap() throws(Unsure) -> [FCMStringPair] {
        try expect(UInt8(ascii: "{"))
        reader.skipWhitespace()
        if next(is: UInt8(ascii: "}")) { return [] }
        var pairs: [FCMStringPair] = []
        // As the parser does: a scan for small maps, a set once they grow.
        var seenKeys: Set<String>?
        while true {
            let key = try string()
            if seenKeys == nil && pairs.count >= 16 { seenKeys = Set(pairs.map(\.key)) }
            if seenKeys != nil {
                guard seenKeys!.insert(key).inserted else { throw Unsure() }
            } else {
                guard !pairs.contains(where: { $0.key == key }) else { throw Unsure() }
            }
            try expect(UInt8(ascii: ":"))
            let pair = FCMStringPair(key, try string())
            let more = try commaOrEnd(closing: UInt8(ascii: "}"))
            if pairs.isEmpty {
                // A map of one entry (often `apns.headers`) gets an array made for just it; a
                // longer one room for a typical map at once, instead of growing through 1, 2
                // and 4 entries. Reserving room in the empty array costs about twice as much.
                if !more { return [pair] }
                pairs.reserveCapacity(4)
            }
            pairs.append(pair)
            if !more { return pairs }
        }
    }

    /// A `google.protobuf.Struct` member of a config (`apns.payload`, `webpush.notification`,
    /// `android.notification`): parsed by the reader, at the depth the parser would be at.
    private mutating func structObject() throws(Unsure) -> JSONObject {
        reader.skipWhitespace()
        guard reader.nextByte == UInt8(ascii: "{") else { throw Unsure() }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try reader.parseValue(depth: Self.configMemberDepth, key: "")
        } catch {
            throw Unsure()
        }
        guard case .object(let object) = value else { throw Unsure() }
        return object
    }

    // MARK: Punctuation

    /// Consumes `byte` if it comes next.
    @inline(__always)
    private mutating func next(is byte: UInt8) -> Bool {
        guard reader.nextByte == byte else { return false }
        reader.index += 1
        return true
    }

    @inline(__always)
    private mutating func expect(_ byte: UInt8) throws(Unsure) {
        reader.skipWhitespace()
        guard next(is: byte) else { throw Unsure() }
    }

    /// After a member: true for a comma (another member follows), false for `closing`.
    @inline(__always)
    private mutating func commaOrEnd(closing: UInt8) throws(Unsure) -> Bool {
        reader.skipWhitespace()
        if next(is: UInt8(ascii: ",")) { return true }
        if next(is: closing) { return false }
        throw Unsure()
    }
}
