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
        let scheme: StaticString = "bearer"
        guard bytes.count - start > scheme.utf8CodeUnitCount else { return false }
        for offset in 0..<scheme.utf8CodeUnitCount where bytes[start + offset] | 0x20 != scheme.utf8Start[offset] {
            return false
        }
        let rest = start + scheme.utf8CodeUnitCount
        return bytes[rest] == space && bytes[(rest + 1)...].contains { $0 != space }
    }
}
