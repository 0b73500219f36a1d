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
}
