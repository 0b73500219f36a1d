import ByteCoding
import PushCore
import Signatures

/// The OAuth token endpoint's options (`--service-account`, `--access-token-lifetime`; see docs/auth.md).
public struct OAuthSettings: Sendable {
    /// The service accounts whose assertions are accepted; empty, any account is, unsigned.
    public var serviceAccounts: [ServiceAccount] = []
    /// How long an issued access token lives, in seconds of real time.
    public var accessTokenLifetimeSeconds: Int64 = 3600

    /// The defaults: no known accounts, hour-long tokens.
    public init() {}
}

/// Why a service-account JSON file cannot be used.
public struct ServiceAccountFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for the command line.
    public let description: String
}

extension OAuthSettings {
    /// A service account from its JSON key file (what the Cloud console downloads): its
    /// `client_email`, and the public half of its `private_key` (PKCS#8 PEM, RSA), which
    /// verifies its RS256 assertions.
    public static func serviceAccount(json: [UInt8]) throws(ServiceAccountFileError) -> ServiceAccount {
        guard case .object(let object)? = try? JSONParser.parse(json) else {
            throw ServiceAccountFileError(description: "not a JSON object (expected a service-account key file)")
        }
        guard case .string(let email)? = object["client_email"], !email.isEmpty else {
            throw ServiceAccountFileError(description: "no \"client_email\" string")
        }
        guard case .string(let pem)? = object["private_key"] else {
            throw ServiceAccountFileError(description: "no \"private_key\" string")
        }
        let key: RSAPublicKey
        do {
            key = try RSAPublicKey(pem: pem)
        } catch {
            throw ServiceAccountFileError(description: "\"private_key\": \(error)")
        }
        return ServiceAccount(clientEmail: email) { signed, signature in key.isValidSignature(signature, of: signed) }
    }
}
