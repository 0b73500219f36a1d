/// A device found a moment ago (`PushEmulatorCore.apnsRecipient`, through its APNs token), to be
/// looked up again by `send(knownDevice:)` without hashing its registration token anew: an APNs
/// push looks its device up twice, under a shard's lock each time, with its checks in between;
/// the second look also skips finding the project again (`slot`).
public struct KnownDevice: Sendable, Equatable {
    /// The token as a table key, its digest worked out once.
    let key: TokenKey
    /// The slot of the project the device was found in, so that the send need not look the
    /// project up again (nil: look it up).
    let slot: ProjectSlot?

    /// The device's registration token.
    public var token: String { key.token }

    /// The device of registration token `token`.
    public init(token: String) {
        key = TokenKey(token)
        slot = nil
    }

    /// The device of registration token `token`, found in the project of `slot`.
    init(token: String, in slot: ProjectSlot) {
        key = TokenKey(token)
        self.slot = slot
    }

    /// Whether both are the device of one registration token.
    public static func == (lhs: KnownDevice, rhs: KnownDevice) -> Bool {
        lhs.key == rhs.key
    }
}
