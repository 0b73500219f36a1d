/// The `apns-topic` Apple expects for a bundle id and push type.
public enum APNsTopic {
    /// The bundle id with the suffix Apple requires for `pushType` (`.voip` for VoIP,
    /// `.push-type.liveactivity` for Live Activities, none for alert and background pushes).
    public static func forBundleID(_ bundleID: String, pushType: String) -> String {
        let suffix = suffix(forPushType: pushType)
        // Most pushes use the bare bundle id, which needs no new string.
        return suffix.isEmpty ? bundleID : bundleID + suffix
    }

    /// The suffix for `pushType`; empty for push types that use the bare bundle id.
    public static func suffix(forPushType pushType: String) -> String {
        switch pushType {
        // The usual push types come first: a string switch tries its cases in order.
        case "alert", "background": ""
        case "voip": ".voip"
        case "complication": ".complication"
        case "fileprovider": ".pushkit.fileprovider"
        case "liveactivity": ".push-type.liveactivity"
        case "location": ".location-query"
        case "pushtotalk": ".voip-ptt"
        case "widgets": ".push-type.widgets"
        case "controls": ".push-type.controls"
        default: ""
        }
    }
}
