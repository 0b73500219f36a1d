import ByteCoding

/// The `text` filter of the message log: whether a send's title, subtitle, body or data holds the
/// text, compared without regard to case (docs/fcm.md, "The message log").
///
/// Searched are the strings under a `title`, `subtitle`, `body` or `alert` key anywhere in the
/// request (FCM's `notification` and its platform blocks, APNs' `aps.alert`), every string under a
/// `data` key, and, in an APNs payload (the APNs API's, or `apns.payload` of an FCM send), every
/// string of a custom key beside `aps`. Keys are not searched, nor are other fields (tokens, topics,
/// headers): the filters for those are exact.
enum MessageLogTextSearch {
    /// Whether `requestBody` (a logged request, which always parses) holds `text` in a searched
    /// string; `text` is already lowercased.
    static func matches(_ requestBody: [UInt8], origin: DeliveryOrigin, lowercasedText text: String) -> Bool {
        // The search reads the log with the project's lock held: an entry whose bytes cannot hold
        // the text is passed without parsing it.
        guard ASCIIScan.jsonMayHold(requestBody, lowercasedNeedle: Array(text.utf8)),
            let request = try? JSONParser.parse(requestBody)
        else { return false }
        switch origin {
        case .apns: return apnsPayloadMatches(request, text)
        case .fcm: return search(request, key: nil, isData: false, text)
        }
    }

    private static let textKeys: Set<String> = ["title", "subtitle", "body", "alert"]

    /// Searches `value`, found under `key`; `isData`: every string below is searched.
    private static func search(_ value: JSONValue, key: String?, isData: Bool, _ text: String) -> Bool {
        switch value {
        case .string(let string):
            guard isData || key.map(textKeys.contains) == true else { return false }
            return string.lowercased().contains(text)
        case .array(let elements):
            return elements.contains { search($0, key: key, isData: isData, text) }
        case .object(let object):
            if key == "payload", !isData, apnsPayloadMatches(value, text) { return true }
            return object.members.contains { member in
                search(member.value, key: member.key, isData: isData || member.key == "data", text)
            }
        case .null, .bool, .number:
            return false
        }
    }

    /// An APNs payload: its `aps` for the alert's texts, its custom keys whole.
    private static func apnsPayloadMatches(_ payload: JSONValue, _ text: String) -> Bool {
        guard case .object(let object) = payload else { return false }
        return object.members.contains { member in
            member.key == "aps"
                ? search(member.value, key: nil, isData: false, text)
                : search(member.value, key: member.key, isData: true, text)
        }
    }
}
