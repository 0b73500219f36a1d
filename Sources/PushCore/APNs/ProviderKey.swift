/// A provider key the emulator knows (`--apns-key KEYID:TEAMID:path`): the team it belongs to and
/// how to check a signature made with it. PushCore sees only the check, so that the
/// cryptography stays outside it.
public struct ProviderKey: Sendable {
    /// The key id, as tokens name it in `kid`.
    public let keyID: String
    /// The team the key belongs to, which tokens must name in `iss`.
    public let teamID: String
    /// Whether `signature` is this key's ES256 signature of `signedBytes` (raw R‖S or DER).
    public let verify: @Sendable (_ signedBytes: [UInt8], _ signature: [UInt8]) -> Bool

    /// Makes a key from its ids and its signature check.
    public init(keyID: String, teamID: String, verify: @escaping @Sendable (_ signedBytes: [UInt8], _ signature: [UInt8]) -> Bool) {
        self.keyID = keyID
        self.teamID = teamID
        self.verify = verify
    }
}
