/// Where a message goes: exactly one of these per message.
public enum FCMTarget: Sendable, Equatable {
    /// An FCM registration token.
    case token(String)
    /// A topic name, without `/topics/`.
    case topic(String)
    /// A topic condition such as `'a' in topics && !('b' in topics)` (checked by validation; `TopicCondition` parses it).
    case condition(String)
    /// A Firebase installation ID; the emulator treats it like a token.
    case fid(String)
}
