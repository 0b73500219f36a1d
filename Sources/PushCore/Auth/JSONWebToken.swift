import ByteCoding

/// A compact JWS (`header.claims.signature`, each unpadded base64url) taken apart: the header and
/// claims as JSON objects, the bytes the signature covers and the signature. The one JWT splitter
/// of the project: APNs provider tokens and OAuth service-account assertions read their own
/// members from it.
public struct JSONWebToken: Sendable {
    /// The header object (`alg`, `kid`, `typ`, ...).
    public let header: JSONObject
    /// The claims object.
    public let claims: JSONObject
    /// The bytes the signature covers: the header and claims segments as sent, with their dot.
    public let signedBytes: [UInt8]
    /// The signature, decoded.
    public let signature: [UInt8]

    /// Why a text is not a compact JWS.
    public enum FormError: Error, Sendable, Equatable {
        /// Not three segments separated by dots.
        case notThreeSegments
        /// A segment is not unpadded base64url (0 the header, 1 the claims, 2 the signature).
        case notBase64URL(segment: Int)
        /// The header or the claims are not a JSON object.
        case notJSONObject(segment: Int)
    }

    /// The most digits a numeric date (`iat`, `exp`) may have: enough for any date, few enough
    /// for an `Int64`.
    static let maximumSecondsDigits = 18

    /// Takes a token apart, or says why it is not one.
    public init(parsing token: some StringProtocol) throws(FormError) {
        let bytes = Array(token.utf8)
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .notThreeSegments }
        header = try Self.jsonObject(segments[0], segment: 0)
        claims = try Self.jsonObject(segments[1], segment: 1)
        guard let signature = Base64URL.decode(bytes: segments[2]) else { throw .notBase64URL(segment: 2) }
        self.signedBytes = Array(bytes[segments[0].startIndex..<segments[1].endIndex])
        self.signature = signature
    }

    /// A claim holding a whole number of seconds, written as a JSON number or, when
    /// `allowingString`, as a string of digits; nil when absent or anything else (a sign, a
    /// fraction, an exponent, too many digits).
    public func seconds(_ claim: String, allowingString: Bool = false) -> Int64? {
        let text: String
        switch claims[claim] {
        case .number(let number)?: text = number
        case .string(let string)? where allowingString: text = string
        default: return nil
        }
        let digits = text.utf8
        guard !digits.isEmpty, digits.count <= Self.maximumSecondsDigits,
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(text)
    }

    private static func jsonObject(_ segment: ArraySlice<UInt8>, segment index: Int) throws(FormError) -> JSONObject {
        guard let json = Base64URL.decode(bytes: segment) else { throw .notBase64URL(segment: index) }
        guard let value = try? JSONParser.parse(json), case .object(let object) = value else {
            throw .notJSONObject(segment: index)
        }
        return object
    }
}
