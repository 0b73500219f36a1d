import ByteCoding
import PushCore
import Synchronization

/// JWTs for the provider-token tests, "signed" by a stand-in for ES256 that ties a signature to
/// its key id and the signed bytes, so that PushCore's rules are tested without cryptography.
enum FakeJWT {
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"

    /// The stand-in signature of `signedBytes` by the key `keyID`.
    static func signature(keyID: String, of signedBytes: [UInt8]) -> [UInt8] {
        Array("signed by \(keyID):".utf8) + signedBytes.suffix(16)
    }

    /// A token of this header and these claims (JSON texts), signed by `signedBy` (nil: the header's key).
    static func token(header: String, claims: String, signedBy: String? = keyID) -> String {
        let signedText = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signatureBytes = signedBy.map { signature(keyID: $0, of: Array(signedText.utf8)) } ?? []
        return signedText + "." + Base64URL.encode(signatureBytes)
    }

    /// A well-formed token; `iatAsString` writes `iat` as APNSwift does.
    static func token(keyID: String = keyID, teamID: String = teamID, issuedAt: Int64, iatAsString: Bool = false) -> String {
        let iat = iatAsString ? "\"\(issuedAt)\"" : "\(issuedAt)"
        return token(header: #"{"alg":"ES256","kid":"\#(keyID)"}"#, claims: #"{"iss":"\#(teamID)","iat":\#(iat)}"#, signedBy: keyID)
    }

    /// A key whose check accepts exactly `signature(keyID:of:)` and counts its calls.
    static func key(keyID: String = keyID, teamID: String = teamID, calls: VerifyCalls = VerifyCalls()) -> ProviderKey {
        ProviderKey(keyID: keyID, teamID: teamID) { signedBytes, signature in
            calls.count.add(1, ordering: .relaxed)
            return signature == Self.signature(keyID: keyID, of: signedBytes)
        }
    }
}

/// How many times a fake key's check ran.
final class VerifyCalls: Sendable {
    let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
}
