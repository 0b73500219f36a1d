/// Why an `authorization: bearer` value is not a provider token APNs would read. Each one makes
/// the request fail with InvalidProviderToken; the message is for the emulator's log.
public enum ProviderTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not three segments separated by dots.
    case notThreeSegments
    /// A segment is not unpadded base64url (`segment` is 0 for the header, 1 the claims, 2 the signature).
    case notBase64URL(segment: Int)
    /// The header or the claims are not a JSON object.
    case notJSONObject(segment: Int)
    /// The header's `alg` is not `ES256` (nil when absent or not a string).
    case unsupportedAlgorithm(String?)
    /// The header has no `kid` string.
    case missingKeyID
    /// The claims have no `iss` string.
    case missingIssuer
    /// The claims' `iat` is absent, or neither a whole number of seconds nor a string of one.
    case badIssuedAt

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .notThreeSegments: "a JWT is three base64url segments separated by dots"
        case .notBase64URL(let segment): "the \(Self.segmentName(segment)) is not unpadded base64url"
        case .notJSONObject(let segment): "the \(Self.segmentName(segment)) is not a JSON object"
        case .unsupportedAlgorithm(let algorithm): "alg must be \"ES256\", not \(algorithm.map { "\"\($0)\"" } ?? "absent")"
        case .missingKeyID: "the header has no kid string"
        case .missingIssuer: "the claims have no iss string"
        case .badIssuedAt: "iat must be a whole number of seconds, as a JSON number or a string"
        }
    }

    private static func segmentName(_ segment: Int) -> String {
        switch segment {
        case 0: "header"
        case 1: "claims segment"
        default: "signature"
        }
    }
}
