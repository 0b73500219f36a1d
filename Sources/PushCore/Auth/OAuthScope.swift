/// The OAuth scopes the emulator knows by name.
public enum OAuthScope {
    /// Every Google Cloud API; what the Python Admin SDK asks for.
    public static let cloudPlatform = "https://www.googleapis.com/auth/cloud-platform"
    /// FCM alone; what the other Admin SDKs ask for.
    public static let firebaseMessaging = "https://www.googleapis.com/auth/firebase.messaging"
    /// Scopes that let a token call FCM, its topic APIs and Instance ID.
    public static let messaging: Set<String> = [cloudPlatform, firebaseMessaging]
    /// What every Google OAuth scope URL starts with.
    static let googlePrefix = "https://www.googleapis.com/auth/"

    /// The scopes of a space-separated `scope` claim, in order, without empty entries.
    public static func split(_ claim: String) -> [String] {
        claim.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }
}
