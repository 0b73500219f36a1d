import Synchronization

/// How many faults have fired since the start, by the API of the send they answered (`/metrics`
/// counts them; kept through resets). Faults fire rarely, so an atomic for each API is enough.
final class FaultsFired: Sendable {
    private let fcm = Atomic<Int>(0)
    private let apns = Atomic<Int>(0)

    /// Counts one fault fired on a send of `origin`.
    func count(_ origin: DeliveryOrigin) {
        switch origin {
        case .apns: apns.wrappingAdd(1, ordering: .relaxed)
        case .fcm: fcm.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// The counts, by origin (an origin without a fault fired is absent).
    var byOrigin: [DeliveryOrigin: Int] {
        var counts = [DeliveryOrigin: Int]()
        for (origin, count) in [(DeliveryOrigin.fcm, fcm.load(ordering: .relaxed)), (.apns, apns.load(ordering: .relaxed))]
        where count > 0 {
            counts[origin] = count
        }
        return counts
    }
}
