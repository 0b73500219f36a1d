/// The Google and Apple API hosts the emulator stands in for: its generated certificate names
/// them, and an HTTPS proxy `CONNECT` to one of them on its API port is tunnelled into the
/// emulator (docs/interception.md). Any other host is refused: never an open proxy.
public enum InterceptedHosts {
    /// The host names, lowercase.
    public static let names: [String] =
        ["fcm.googleapis.com", "iid.googleapis.com", "oauth2.googleapis.com", "www.googleapis.com"] + APNsHost.names

    /// Whether `CONNECT host:port` opens a tunnel into the emulator: one of `names` on 443, or
    /// an Apple host on 2197 (APNs' other port).
    public static func intercepts(host: String, port: Int) -> Bool {
        guard names.contains(host) else { return false }
        return port == 443 || (port == 2197 && APNsHost.isApple(host))
    }
}
