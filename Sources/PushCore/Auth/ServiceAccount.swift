/// A service account the emulator knows (`--service-account FILE`): its `client_email`, which
/// assertions name in `iss`, and how to check an RS256 signature made with its key. PushCore sees
/// only the check, so that the cryptography stays outside it.
public struct ServiceAccount: Sendable {
    /// The account's email, the `iss` of its assertions.
    public let clientEmail: String
    /// Whether `signature` is this account's RS256 signature of `signedBytes`.
    public let verify: @Sendable (_ signedBytes: [UInt8], _ signature: [UInt8]) -> Bool

    /// Makes an account from its email and its signature check.
    public init(clientEmail: String, verify: @escaping @Sendable (_ signedBytes: [UInt8], _ signature: [UInt8]) -> Bool) {
        self.clientEmail = clientEmail
        self.verify = verify
    }
}
