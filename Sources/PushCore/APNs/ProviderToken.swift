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

    /// The most digits `iat` may have: enough for any date, few enough for an `Int64`.
    static let maximumIssuedAtDigits = 18

    /// Takes a token apart, or says why it is not one.
    public init(parsing token: some StringProtocol) throws(ProviderTokenError) {
        let bytes = Array(token.utf8)
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .notThreeSegments }
        let header = try Self.jsonObject(segments[0], segment: 0)
        let claims = try Self.jsonObject(segments[1], segment: 1)
        guard let signature = Base64URL.decode(bytes: segments[2]) else { throw .notBase64URL(segment: 2) }

        guard case .string(let algorithm)? = header["alg"], algorithm == "ES256" else {
            throw .unsupportedAlgorithm(header["alg"]?.stringValue)
        }
        guard case .string(let keyID)? = header["kid"], !keyID.isEmpty else { throw .missingKeyID }
        guard case .string(let teamID)? = claims["iss"], !teamID.isEmpty else { throw .missingIssuer }
        let issuedAtText: String
        switch claims["iat"] {
        case .number(let text)?, .string(let text)?: issuedAtText = text
        default: throw .badIssuedAt
        }
        guard let issuedAt = Self.wholeSeconds(issuedAtText) else { throw .badIssuedAt }

        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
        self.signedBytes = Array(bytes[segments[0].startIndex..<segments[1].endIndex])
        self.signature = signature
    }

    private static func jsonObject(_ segment: ArraySlice<UInt8>, segment index: Int) throws(ProviderTokenError) -> JSONObject {
        guard let json = Base64URL.decode(bytes: segment) else { throw .notBase64URL(segment: index) }
        guard let value = try? JSONParser.parse(json), case .object(let object) = value else {
            throw .notJSONObject(segment: index)
        }
        return object
    }

    /// Digits only (no sign, fraction or exponent), at most `maximumIssuedAtDigits` of them.
    private static func wholeSeconds(_ text: String) -> Int64? {
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= maximumIssuedAtDigits,
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(text)
    }
}
