import ByteCoding

/// The APNs payload of a converted FCM message, serialized as it is built.
///
/// Key order: `aps`, custom keys (from `apns.payload`, then `data` entries whose key is not taken
/// yet), then FCM's keys. An FCM key replaces a custom key of the same name, which then appears
/// only at the end. The bytes are written straight from the input's parts: a send converts one
/// message, and building a JSON tree only to serialize it cost more than the rest of the
/// conversion.
struct ApplePayload {
    /// The serialized payload, in a buffer of its size.
    private(set) var bytes: [UInt8] = []
    /// Whether `aps` asks the system to show or sound something.
    private(set) var isUserVisible = false
    /// The size of the scratch space a payload is first written into (`JSONBufferWriter.bytes`):
    /// the most that goes on the stack without asking the runtime. Most payloads fit; a longer one
    /// is written again at the size the first pass counted.
    static let firstScratchByteCount = 1024
    /// Up to this many custom keys and data entries together, a data entry's key is checked
    /// against the others by a scan, which costs less than a set for the maps clients send.
    static let keysCheckedByScan = 32

    /// The payload for `input`.
    init(_ input: borrowing AppleConversionInput) {
        let custom = input.apnsPayload?.members ?? []
        // The notification's fields read in one pass: each `input.notification?.field` copies
        // the whole notification and frees the copy.
        let title, body, image: String?
        let hasNotification: Bool
        switch input.notification {
        case .some(let notification):
            (title, body, image, hasNotification) = (notification.title, notification.body, notification.image, true)
        case .none:
            (title, body, image, hasNotification) = (nil, nil, nil, false)
        }
        let replaced = ReplacedKeys(input, analytics: hasNotification, notificationImage: image)
        var aps = JSONObject()
        if let given = custom.first(where: { $0.key == "aps" }), case .object(let object) = given.value {
            aps = object
        }
        let alert = AlertFill(aps: aps, title: title, body: body)
        // Whether it shows or sounds something, from `aps` as written: a new alert, or a key that does.
        isUserVisible = alert.isNew || aps.members.contains { APNsNotification.isUserVisibleKey($0.key) }
        bytes = JSONBufferWriter.bytes(capacity: Self.firstScratchByteCount) { output in
            write(input, aps: aps, alert: alert, custom: custom, replaced: replaced, to: &output)
        }
    }

    private func write(
        _ input: borrowing AppleConversionInput, aps: JSONObject, alert: AlertFill, custom: [JSONObject.Member],
        replaced: ReplacedKeys, to output: inout JSONBufferWriter
    ) {
        JSONSerializer.append("{\"aps\":", to: &output)
        writeAPS(aps, alert: alert, to: &output)
        var removed = ReplacedKeys.Removed()
        // Members and entries are read in place, by position: a copy of each would retain and
        // release its strings.
        for position in custom.indices where custom[position].key != "aps" {
            // Only the first of a key goes: a JSON object made in code may repeat one.
            if let slot = replaced.slot(of: custom[position].key), removed.insert(slot) { continue }
            output.appendByte(0x2C)
            JSONSerializer.writeString(custom[position].key, to: &output)
            output.appendByte(0x3A)
            JSONSerializer.write(custom[position].value, to: &output)
        }
        // A data entry goes when no custom key and no earlier entry has its key. A few keys are
        // checked by a scan; many through a set, so that a body of thousands stays linear.
        let checksBySet = custom.count + input.data.count > Self.keysCheckedByScan
        var taken: Set<String> = checksBySet ? Set(custom.lazy.map(\.key)) : []
        for position in input.data.indices {
            let key = input.data[position].key
            guard key != "aps" else { continue }
            if checksBySet {
                guard taken.insert(key).inserted else { continue }
            } else {
                guard !custom.contains(where: { $0.key == key }),
                    !input.data[..<position].contains(where: { $0.key == key })
                else { continue }
            }
            if let slot = replaced.slot(of: key), removed.insert(slot) { continue }
            output.appendByte(0x2C)
            JSONSerializer.writeString(key, to: &output)
            output.appendByte(0x3A)
            JSONSerializer.writeString(input.data[position].value, to: &output)
        }
        writeFCMKeys(input, replaced: replaced, to: &output)
        output.appendByte(0x7D)
    }

    private func writeAPS(_ aps: JSONObject, alert: AlertFill, to output: inout JSONBufferWriter) {
        output.appendByte(0x7B)
        if alert.isNew {
            // A new alert goes first, where Apple's and Google's examples put it.
            JSONSerializer.append("\"alert\":{", to: &output)
            writeAlertFields(alert, afterOthers: false, to: &output)
            output.appendByte(0x7D)
        }
        for (position, member) in aps.members.enumerated() {
            if position > 0 || alert.isNew { output.appendByte(0x2C) }
            JSONSerializer.writeString(member.key, to: &output)
            output.appendByte(0x3A)
            JSONSerializer.write(member.value, to: &output)
            if position == alert.position, alert.title != nil || alert.body != nil {
                // Back over the alert object's closing brace, to add what it lacks.
                output.removeLast()
                writeAlertFields(alert, afterOthers: !alert.givenIsEmpty, to: &output)
                output.appendByte(0x7D)
            }
        }
        output.appendByte(0x7D)
    }

    private func writeAlertFields(_ alert: AlertFill, afterOthers: Bool, to output: inout JSONBufferWriter) {
        // Each key with the comma before it, when one is needed, as one literal.
        if let title = alert.title {
            JSONSerializer.append(afterOthers ? ",\"title\":" : "\"title\":", to: &output)
            JSONSerializer.writeString(title, to: &output)
        }
        if let body = alert.body {
            JSONSerializer.append(afterOthers || alert.title != nil ? ",\"body\":" : "\"body\":", to: &output)
            JSONSerializer.writeString(body, to: &output)
        }
    }

    private func writeFCMKeys(_ input: borrowing AppleConversionInput, replaced: ReplacedKeys, to output: inout JSONBufferWriter) {
        JSONSerializer.append(",\"gcm.message_id\":", to: &output)
        switch input.messageIDSource {
        case .given(let text):
            JSONSerializer.writeString(text, to: &output)
        case .generated(let number):
            // Digits: nothing to escape.
            output.appendByte(0x22)
            DecimalDigits.withDigits(of: number) { output.appendBytes($0) }
            output.appendByte(0x22)
        }
        // The analytics flag and the sender id's key, side by side, as one literal.
        JSONSerializer.append(
            replaced.analytics ? ",\"google.c.a.e\":\"1\",\"google.c.sender.id\":" : ",\"google.c.sender.id\":", to: &output)
        JSONSerializer.writeString(input.senderID, to: &output)
        if let fid = input.fid {
            JSONSerializer.append(",\"google.c.fid\":", to: &output)
            JSONSerializer.writeString(fid, to: &output)
        }
        if let image = replaced.image {
            JSONSerializer.append(",\"fcm_options\":{\"image\":", to: &output)
            JSONSerializer.writeString(image, to: &output)
            output.appendByte(0x7D)
        }
    }
}

/// Where `notification.title/body` go in `aps`: into a new alert when `apns.payload` gives none,
/// into its alert object where that lacks them, nowhere when the alert is a string.
private struct AlertFill {
    /// The position of the alert object to fill, when there is one to fill.
    let position: Int?
    /// Whether the alert is made here.
    let isNew: Bool
    /// Whether the given alert object has no members.
    let givenIsEmpty: Bool
    /// The title to write, if any.
    let title: String?
    /// The body to write, if any.
    let body: String?

    init(aps: borrowing JSONObject, title: String?, body: String?) {
        guard title != nil || body != nil else {
            (position, isNew, givenIsEmpty, self.title, self.body) = (nil, false, true, nil, nil)
            return
        }
        guard let found = aps.members.firstIndex(where: { $0.key == "alert" }) else {
            (position, isNew, givenIsEmpty, self.title, self.body) = (nil, true, true, title, body)
            return
        }
        guard case .object(let given) = aps.members[found].value else {
            (position, isNew, givenIsEmpty, self.title, self.body) = (nil, false, true, nil, nil)
            return
        }
        position = found
        isNew = false
        givenIsEmpty = given.isEmpty
        self.title = given["title"] == nil ? title : nil
        self.body = given["body"] == nil ? body : nil
    }
}

/// The keys FCM writes last for one input, each of which removes a custom key of that name.
private struct ReplacedKeys {
    /// Which of the keys (by `slot(of:)`) a custom key has already given up.
    struct Removed {
        private var bits: UInt8 = 0

        /// Marks `slot`; true when it was not marked yet.
        mutating func insert(_ slot: Int) -> Bool {
            let bit: UInt8 = 1 << slot
            defer { bits |= bit }
            return bits & bit == 0
        }
    }

    /// Whether `google.c.a.e` is written (for messages with a notification).
    let analytics: Bool
    /// Whether `google.c.fid` is written (for messages sent to a fid).
    let fid: Bool
    /// `fcm_options.image`, when written.
    let image: String?

    /// The keys for `input`, whose notification (`analytics`: there is one) has `notificationImage`.
    init(_ input: borrowing AppleConversionInput, analytics: Bool, notificationImage: String?) {
        self.analytics = analytics
        fid = input.fid != nil
        image = input.apnsImage ?? notificationImage
    }

    /// A number for `key` when FCM writes it for this input, or nil.
    func slot(of key: String) -> Int? {
        // Most keys are none of these, and a length tells that for less than five comparisons.
        let length = key.utf8.count
        guard length == 11 || length == 12 || length == 14 || length == 18 else { return nil }
        return switch key {
        case "gcm.message_id": 0
        case "google.c.a.e" where analytics: 1
        case "google.c.sender.id": 2
        case "google.c.fid" where fid: 3
        case "fcm_options" where image != nil: 4
        default: nil
        }
    }
}
