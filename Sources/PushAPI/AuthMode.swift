import ByteCoding
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
        // `bearer ` and at least one byte more, compared as one word: the six letters in any
        // case (their 0x20 bit set), the space as it is, the eighth byte masked off.
        guard bytes.count - start > 7, let base = bytes.baseAddress else { return false }
        let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self).littleEndian
        let bearer: UInt64 = 0x0020_7265_7261_6562  // "bearer " little-endian
        guard WordBytes.firstBytes(of: word | 0x0000_2020_2020_2020, count: 7) == bearer else { return false }
        return bytes[(start + 7)...].contains { $0 != space }
    }
}
