/// Apple's provider API host names, which the emulator's certificate covers: a connection or
/// request that names one is treated as Apple's (see docs/apns.md).
enum APNsHost {
    /// The production host; every other name is the development environment.
    static let production = "api.push.apple.com"
    /// Every host name of the provider API, production first.
    static let names = [production, "api.sandbox.push.apple.com", "api.development.push.apple.com"]
    private static let all = Set(names)

    /// Whether `name` (an SNI name, or a `Host` with or without a port) is one of Apple's.
    static func isApple(_ name: String?) -> Bool {
        guard let name else { return false }
        return all.contains(withoutPort(name))
    }

    /// Whether a request for `host` goes to the production environment.
    static func isProduction(_ host: String?) -> Bool {
        // Most hosts (localhost, an address with its port) are too short to be it: checked
        // without making a string.
        guard let host, host.utf8.count >= production.utf8.count else { return false }
        return withoutPort(host) == production
    }

    private static func withoutPort(_ host: String) -> String {
        guard let colon = host.lastIndex(of: ":"), !host.hasPrefix("[") else { return host.lowercased() }
        return String(host[..<colon]).lowercased()
    }
}
