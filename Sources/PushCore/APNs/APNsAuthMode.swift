/// How the APNs provider API checks provider tokens (`--apns-auth`).
public enum APNsAuthMode: String, Sendable, CaseIterable {
    /// Nothing is checked; every request counts as authenticated.
    case off
    /// A well-formed ES256 JWT with `kid` and `iss` is required; its signature and age are not checked.
    case any
    /// The JWT must be signed by a key given with `--apns-key`, be under an hour old, keep to one
    /// team per connection and be renewed at most once in 20 minutes (docs/apns.md).
    case strict
}
