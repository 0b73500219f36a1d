/// Why a device could not be registered.
public enum DeviceRegistrationError: Error, Sendable, Equatable {
    /// The given FCM token is not well-formed (see `RegistrationToken.isWellFormed`).
    case malformedToken
    /// The given APNs token is not hex of whole bytes (see `APNsDeviceToken.isWellFormed`).
    case malformedAPNsToken
    /// A device with this FCM token exists already.
    case tokenInUse
    /// Another device has this APNs token.
    case apnsTokenInUse
    /// An APNs token for an Android or web device, which FCM reaches without APNs.
    case apnsTokenNotApple(Platform)
    /// A web origin that is not `http(s)://host[:port]`.
    case malformedOrigin(String)
    /// An Android package name that is not dot-separated Java identifiers.
    case malformedPackageName(String)
    /// The project's device sequence is at its maximum (docs/state.md, "Counters").
    case counterExhausted(CounterExhausted)

    /// A message for the HTTP error body, saying what to do.
    public var message: String {
        switch self {
        case .malformedToken:
            "token must be 1 to 4096 characters of A-Z, a-z, 0-9, '_', '-' and ':' (or leave it out to get a generated one)"
        case .malformedAPNsToken:
            "apnsToken must be an even number (2 to 512) of hex digits"
        case .tokenInUse:
            "a device with this token is already registered; delete it first or leave token out"
        case .apnsTokenInUse:
            "another device already has this apnsToken; delete that device first"
        case .apnsTokenNotApple(let platform):
            "apnsToken is for ios devices only; an \(platform.rawValue) device is reached by its FCM token"
        case .malformedOrigin(let origin):
            "origin must be http:// or https:// and a host, with an optional port and nothing after it (like https://shop.example); got \"\(origin)\""
        case .malformedPackageName(let name):
            "packageName must be two or more dot-separated parts of letters, digits and '_', each starting with a letter (like com.example.app); got \"\(name)\""
        case .counterExhausted(let exhausted):
            exhausted.message
        }
    }
}
