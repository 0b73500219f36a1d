/// A signing key the `strict` mode accepts provider tokens from.
public struct ProviderKey: Sendable {
    /// The key id (`kid`).
    public let keyID: String
    /// The team the key belongs to (`iss`).
    public let teamID: String
    /// Checks an ES256 signature of the signed bytes.
    public let verify: @Sendable (_ signedBytes: [UInt8], _ signature: [UInt8]) -> Bool

    /// Makes a key.
    public init(keyID: String, teamID: String, verify: @escaping @Sendable ([UInt8], [UInt8]) -> Bool) {
        self.keyID = keyID
        self.teamID = teamID
        self.verify = verify
    }
}

/// The provider-token state of one connection. For now only the bearer token's presence is
/// checked; the JWT's own checks come with the token parser.
public struct ProviderTokenSession: Sendable {
    /// A connection's state before its first request.
    public init() {}

    /// nil when the request may go on, else Apple's reason.
    public mutating func check(authorization: String?, mode: APNsAuthMode, keys: [String: ProviderKey], now: Timestamp) -> APNsReason? {
        if mode == .off { return nil }
        guard let authorization, authorization.lowercased().hasPrefix("bearer "), authorization.count > 7 else {
            return .missingProviderToken
        }
        return nil
    }
}
