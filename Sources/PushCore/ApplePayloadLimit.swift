/// The largest APNs payload Apple accepts (§3 step 7 of the spec).
public enum ApplePayloadLimit {
    /// 5120 bytes for `voip` pushes, 4096 for every other push type.
    public static func bytes(forPushType pushType: String?) -> Int {
        pushType == "voip" ? 5120 : 4096
    }

    /// Whether a payload of `byteCount` bytes fits for `pushType`.
    public static func fits(byteCount: Int, pushType: String?) -> Bool {
        byteCount <= bytes(forPushType: pushType)
    }
}
