/// The kind of app install a device is. Only `ios` is simulated for now.
public enum Platform: String, Sendable, CaseIterable {
    case ios
    case android
    case web
}
