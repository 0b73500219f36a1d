/// The last few access tokens whose tag was verified, with what they carry, so that a client
/// sending the same token again (every send, for up to an hour) is not tagged again: comparing
/// the text is a small part of the two SHA-256 blocks of the tag. Bounded (`capacity`), so that
/// memory still does not grow with the tokens issued; a token not among them is verified again.
struct RecentAccessTokens: Sendable {
    /// A verified token: its text, its expiry (milliseconds since the epoch) and whether it has a
    /// messaging scope.
    struct Entry: Sendable {
        let text: String
        let expiresAt: Int64
        let hasMessagingScope: Bool
    }

    /// How many tokens are remembered: more clients than this at once each pay for the tag.
    static let capacity = 16

    private var entries: [Entry] = []
    /// The entry the next token replaces once the list is full (oldest first).
    private var next = 0

    /// The entry of `text`, if it was verified recently.
    func entry(of text: String) -> Entry? {
        entries.first { $0.text == text }
    }

    /// Remembers a verified token, in place of the oldest when full.
    mutating func remember(_ entry: Entry) {
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next = (next + 1) % Self.capacity
        }
    }
}
