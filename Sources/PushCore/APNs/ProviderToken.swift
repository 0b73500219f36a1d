import ByteCoding

/// An APNs provider token (a JWT) taken apart: what the header and claims say, the bytes the
/// signature covers and the signature. Parsing checks the form only; whether the signature is
/// right, the key known and the token fresh is `ProviderTokenSession`'s business.
///
/// Accepted as real clients write it: the header a JSON object with `alg` `"ES256"` and a
/// non-empty `kid` string (other members ignored); the claims a JSON object with a non-empty
/// `iss` string and `iat` a whole number of seconds, as a JSON number or a string of digits
/// (APNSwift sends a string, and repeats `kid` in the claims, which is ignored). Each segment is
/// base64url without padding.
public struct ProviderToken: Sendable, Equatable {
    /// The header's `kid`: the id of the key that signed the token.
    public let keyID: String
    /// The claims' `iss`: the team id.
    public let teamID: String
    /// The claims' `iat`: when the token was made, in seconds since the epoch.
    public let issuedAt: Int64
    /// The bytes the signature covers: the header and claims segments as sent, with their dot.
    public let signedBytes: [UInt8]
    /// The signature, decoded (raw R‖S or DER, as the client wrote it).
    public let signature: [UInt8]

    /// Takes a token apart, or says why it is not one.
    public init(parsing token: some StringProtocol) throws(ProviderTokenError) {
        let jwt: JSONWebToken
        do {
            jwt = try JSONWebToken(parsing: token)
        } catch {
            switch error {
            case .notThreeSegments: throw .notThreeSegments
            case .notBase64URL(let segment): throw .notBase64URL(segment: segment)
            case .notJSONObject(let segment): throw .notJSONObject(segment: segment)
            }
        }
        guard case .string(let algorithm)? = jwt.header["alg"], algorithm == "ES256" else {
            throw .unsupportedAlgorithm(jwt.header["alg"]?.stringValue)
        }
        guard case .string(let keyID)? = jwt.header["kid"], !keyID.isEmpty else { throw .missingKeyID }
        guard case .string(let teamID)? = jwt.claims["iss"], !teamID.isEmpty else { throw .missingIssuer }
        guard let issuedAt = jwt.seconds("iat", allowingString: true) else { throw .badIssuedAt }

        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
        self.signedBytes = jwt.signedBytes
        self.signature = jwt.signature
    }
}
