/// A device found a moment ago (`PushEmulatorCore.apnsRecipient`, through its APNs token), to be
/// looked up again by `send(knownDevice:)` without hashing its registration token anew: an APNs
/// push looks its device up twice, under the lock each time, with its checks in between.
public struct KnownDevice: Sendable, Equatable {
    /// The token as a table key, its digest worked out once.
    let key: TokenKey

    /// The device's registration token.
    public var token: String { key.token }

    /// The device of registration token `token`.
    public init(token: String) {
        key = TokenKey(token)
    }
}
