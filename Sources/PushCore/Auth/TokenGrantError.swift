import ByteCoding

/// Why the token endpoint refuses a grant, as Google's OAuth server answers: HTTP 400 with
/// `{"error": code, "error_description": description}` (RFC 6749 §5.2), or 503 for an injected
/// `UNAVAILABLE` fault. Descriptions Google is
/// seen to use are kept word for word; the others are the emulator's own (docs/auth.md lists them).
public struct TokenGrantError: Error, Sendable, Equatable {
    /// The RFC 6749 error code: `invalid_grant`, `invalid_request`, `unsupported_grant_type` or `invalid_scope`.
    public let code: String
    /// What is wrong, in words.
    public let description: String
    /// The HTTP status: 400, but for `temporarilyUnavailable`.
    public let httpStatus: Int

    /// Makes an error.
    public init(code: String, description: String, httpStatus: Int = 400) {
        self.code = code
        self.description = description
        self.httpStatus = httpStatus
    }

    /// The response body.
    public var jsonBytes: [UInt8] {
        JSONSerializer.serialize(["error": .string(code), "error_description": .string(description)])
    }

    /// A `grant_type` other than the JWT-bearer one (Google's wording).
    public static func unsupportedGrantType(_ grantType: String?) -> TokenGrantError {
        TokenGrantError(code: "unsupported_grant_type", description: "Invalid grant_type: \(grantType ?? "")")
    }

    /// No `assertion` in the form (Google's wording).
    public static let missingAssertion = TokenGrantError(code: "invalid_request", description: "Missing required parameter: assertion")

    /// An assertion that is not a JWT, or whose header or claims are not what a service account signs.
    public static func invalidJWT(_ what: String) -> TokenGrantError {
        TokenGrantError(code: "invalid_grant", description: "Invalid JWT: \(what)")
    }

    /// A signature the account's key does not verify, or an `alg` other than RS256 (Google's wording).
    public static let invalidSignature = TokenGrantError(code: "invalid_grant", description: "Invalid JWT Signature.")

    /// An `iss` that names no known service account (Google's wording).
    public static let accountNotFound = TokenGrantError(code: "invalid_grant", description: "Invalid grant: account not found")

    /// `iat` and `exp` out of bounds: a lifetime over an hour, an `exp` already past or an `iat`
    /// in the future (Google's wording).
    public static let badTimeframe = TokenGrantError(
        code: "invalid_grant",
        description: "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.")

    /// An `aud` that is neither Google's token URL nor the emulator's own.
    public static func badAudience(_ audience: String?) -> TokenGrantError {
        invalidJWT("Failed audience check. The audience must be https://oauth2.googleapis.com/token or this server's /token URL, not \(audience.map { "\"\($0)\"" } ?? "absent").")
    }

    /// 503 for an injected `UNAVAILABLE` token fault (docs/faults.md): the code is RFC 6749's,
    /// one google-auth retries; the description is the emulator's own.
    public static let temporarilyUnavailable = TokenGrantError(
        code: "temporarily_unavailable", description: "The token service is temporarily unavailable; try again later.",
        httpStatus: 503)

    /// No scope asked for (Google's wording).
    public static let missingScope = TokenGrantError(code: "invalid_scope", description: "Empty or missing scope not allowed.")

    /// A scope that is not a Google OAuth scope URL (Google's wording).
    public static let invalidScope = TokenGrantError(code: "invalid_scope", description: "Invalid OAuth scope or ID token audience provided.")
}
