/// The largest APNs payload Apple accepts (docs/fcm.md and docs/apns.md).
public enum ApplePayloadLimit {
    /// The limit of every push type but `voip`, and the least any push type allows: a payload
    /// no larger fits whatever its push type, which then need not be looked up.
    public static let bytesForEveryPushType = 4096

    /// 5120 bytes for `voip` pushes, 4096 for every other push type.
    public static func bytes(forPushType pushType: String?) -> Int {
        pushType == "voip" ? 5120 : bytesForEveryPushType
    }

    /// Whether a payload of `byteCount` bytes fits for `pushType`.
    public static func fits(byteCount: Int, pushType: String?) -> Bool {
        byteCount <= bytes(forPushType: pushType)
    }
}
