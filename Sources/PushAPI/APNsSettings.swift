import PushCore
import Signatures

/// How the APNs provider API behaves (`--apns-*` options; see docs/apns.md).
public struct APNsSettings: Sendable {
    /// How provider tokens are checked (`--apns-auth`).
    public var auth: APNsAuthMode = .any
    /// The signing keys `strict` accepts, by key id (`--apns-key`).
    public var keys: [String: ProviderKey] = [:]
    /// The project a send to an unknown device token registers its device in (`--apns-project`).
    public var project = "apns"
    /// SETTINGS_MAX_CONCURRENT_STREAMS of a connection to one of Apple's host names until its
    /// first authenticated request, and after it (`--apns-concurrent-streams`).
    public var streamsBeforeAuthentication: UInt32 = 1
    /// See `streamsBeforeAuthentication`.
    public var streamsAfterAuthentication: UInt32 = 1000
    /// The environment of a push to a host that is not one of Apple's (`localhost`, an address):
    /// `--apns-environment`.
    public var localEnvironment: APNsEnvironment = .development

    /// Whether a push to `host` (`:authority`, `Host` or the TLS server name) goes to the
    /// production environment: Apple's production host does, Apple's sandbox hosts do not, any
    /// other host as `localEnvironment` says.
    func isProduction(host: String?) -> Bool {
        if APNsHost.isApple(host) { return APNsHost.isProduction(host) }
        return localEnvironment == .production
    }

    /// The defaults: `any` authentication, no keys, project `apns`, streams 1 then 1000.
    public init() {}
}

extension APNsSettings {
    /// A signing key for `strict`: the public half of an Apple AuthKey .p8 (PKCS#8 PEM, P-256)
    /// or a public-key PEM, verifying ES256 signatures in either form (raw R‖S or DER).
    public static func providerKey(keyID: String, teamID: String, pem: String) throws -> ProviderKey {
        let key = try ES256PublicKey(pem: pem)
        return ProviderKey(keyID: keyID, teamID: teamID) { signed, signature in
            key.isValidSignature(signature, of: signed)
        }
    }
}
