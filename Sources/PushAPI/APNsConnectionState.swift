import Locking
import PushCore
import Synchronization

/// What the APNs API keeps on one connection: its provider-token state (team, current token,
/// the token verified last) and whether it has had an authenticated request.
final class APNsConnectionState: Sendable {
    let tokens = Locked(ProviderTokenSession())
    private let authenticated = Atomic<Bool>(false)

    /// Notes an authenticated request; true the first time.
    func noteAuthenticated() -> Bool {
        guard !authenticated.load(ordering: .relaxed) else { return false }
        return !authenticated.exchange(true, ordering: .relaxed)
    }
}
