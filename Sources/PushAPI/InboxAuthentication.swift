import ByteCoding
import HTTPServer
import PushCore
import Signatures

/// `--ui-auth-file`: HTTP Basic authentication on the inbox and the rest of the emulator's own API
/// (every `/emulator/` route), with the users of an htpasswd file, as Mailpit's option of that name
/// (docs/inbox.md, "Safe to leave running"). FCM's, Apple's and the token endpoint's routes, and
/// `/healthz` and `/metrics`, are not under it: their clients authenticate their own way.
struct InboxAuthentication: Sendable {
    let users: HtpasswdUsers

    /// What the browser is asked for: its login prompt names the emulator.
    static let challenge = #"Basic realm="push-emulator", charset="UTF-8""#

    /// The 401 that refuses `request`, or nil when it carries a user's password.
    func refusal(_ request: borrowing HTTPRequest) -> HTTPResponse? {
        if let (user, password) = BasicCredential.userAndPassword(in: request.headers["authorization"]),
            users.verify(user: user, password: password)
        {
            return nil
        }
        var response = GoogleErrorResponse.make(
            GoogleError(
                status: .unauthenticated,
                message: "The emulator's API and inbox need a user and password of its --ui-auth-file (HTTP Basic)."))
        response.headers.set("www-authenticate", Self.challenge)
        return response
    }
}
