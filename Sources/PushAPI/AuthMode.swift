import HTTPServer
import PushCore

/// How the FCM endpoints check `Authorization` (`--auth`).
public enum AuthMode: String, Sendable, CaseIterable {
    /// Nothing is checked.
    case off
    /// `Authorization: Bearer <anything>` is required (the default).
    case any
    /// Only unexpired access tokens issued by the emulator's own `/token` endpoint.
    case strict

    /// Google's 401 when the request's credentials do not pass, else nil.
    func reject(_ request: HTTPRequest) -> HTTPResponse? {
        guard self != .off else { return nil }
        // Read in place: every send passes here, and the value is not needed as a `String`.
        guard let isBearer = request.headers.firstValue(named: "authorization", satisfies: Self.isBearer) else {
            return GoogleErrorResponse.make(.unauthenticated(reason: "CREDENTIALS_MISSING"))
        }
        guard isBearer else {
            return GoogleErrorResponse.make(.unauthenticated(reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED"))
        }
        return nil
    }

    /// `Bearer <token>`, the scheme in any case, the token not blank.
    static func isBearer(_ header: String) -> Bool {
        header.utf8.withContiguousStorageIfAvailable(isBearer) ?? Array(header.utf8).withUnsafeBufferPointer(isBearer)
    }

    private static func isBearer(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let space = UInt8(ascii: " ")
        var start = 0
        while start < bytes.count, bytes[start] == space { start += 1 }
        // `bearer `, then at least one byte more.
        let scheme: StaticString = "bearer "
        let schemeLength = scheme.utf8CodeUnitCount
        guard bytes.count - start > schemeLength else { return false }
        for offset in 0..<schemeLength {
            // Only ASCII capitals are lowered: no other byte passes for a letter of the scheme.
            let byte = bytes[start + offset]
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard lowered == scheme.utf8Start[offset] else { return false }
        }
        return bytes[(start + schemeLength)...].contains { $0 != space }
    }
}
