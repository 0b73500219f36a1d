/// How sends to unknown registration tokens are treated (`--tokens`).
public enum TokenMode: String, Sendable, CaseIterable {
    /// A well-formed unknown token registers a device on first send.
    case lenient
    /// Only devices registered through the admin API exist; unknown tokens are invalid.
    case strict
}
