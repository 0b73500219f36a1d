import HTTPServer
import Locking
import PushCore
import Synchronization

/// What the APNs API keeps on one connection: its provider-token state (team, current token,
/// the token verified last) and whether it has had an authenticated request.
final class APNsConnectionState: Sendable {
    let tokens = Locked(ProviderTokenSession())
    /// The header values the connection sent last, as strings.
    let recentValues = Locked(APNsRecentValues())
    private let authenticated = Atomic<Bool>(false)

    /// Notes an authenticated request; true the first time.
    func noteAuthenticated() -> Bool {
        guard !authenticated.load(ordering: .relaxed) else { return false }
        return !authenticated.exchange(true, ordering: .relaxed)
    }
}

/// The values of the headers a client sends alike push after push, each as the string made of it
/// last: the provider token (about 170 bytes), `apns-topic` and `apns-push-type`. Comparing the
/// bytes costs less than making the string each time (a check of its bytes, and an allocation past
/// 15 of them).
struct APNsRecentValues: Sendable {
    private var authorization = RecentHeaderValue<String>()
    private var topic = RecentHeaderValue<String>()
    private var pushType = RecentHeaderValue<String>()

    /// The string of `bytes`, the value of `header`: the one made last time when the bytes are
    /// the same, else a new one (kept for next time for the headers above).
    mutating func value(of header: APNsHeaderName?, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch header {
        case .authorization?: authorization.value(for: bytes, Self.string)
        case .topic?: topic.value(for: bytes, Self.string)
        case .pushType?: pushType.value(for: bytes, Self.string)
        default: Self.string(bytes)
        }
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
