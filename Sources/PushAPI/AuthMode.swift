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
        guard let header = request.headers["authorization"] else {
            return GoogleErrorResponse.make(.unauthenticated(reason: "CREDENTIALS_MISSING"))
        }
        guard Self.isBearer(header) else {
            return GoogleErrorResponse.make(.unauthenticated(reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED"))
        }
        return nil
    }

    /// `Bearer <token>`, the scheme in any case, the token not blank. Read byte by byte: every
    /// send passes here.
    static func isBearer(_ header: String) -> Bool {
        let space = UInt8(ascii: " ")
        let text = header.utf8.drop(while: { $0 == space })
        let scheme = text.prefix(while: { $0 != space })
        guard scheme.count == 6, zip(scheme, "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return false }
        return text.dropFirst(6).contains(where: { $0 != space })
    }
}
