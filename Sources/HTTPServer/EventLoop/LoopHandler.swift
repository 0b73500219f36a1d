/// Something registered with an `EventLoop` that reacts to readiness of its descriptor.
/// Lives on one loop for its whole life and is only ever touched from that loop's thread.
protocol LoopHandler: AnyObject {
    /// The descriptor watched for readiness.
    var fd: Int32 { get }
    /// The descriptor is readable, writable, or the peer hung up (several may be true at once).
    func handleEvent(readable: Bool, writable: Bool, hangup: Bool)
    /// Called a few times a second so the handler can enforce its timeouts.
    func checkDeadline(now: UInt64)
    /// The server is shutting down: stop taking new work and finish what is in flight.
    func beginShutdown()
    /// The loop is going away: release everything now.
    func forceClose()
}
