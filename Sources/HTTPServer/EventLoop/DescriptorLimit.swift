#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open descriptors (`RLIMIT_NOFILE`), which bounds how many connections
/// the server can hold at once.
public enum DescriptorLimit {
    /// The soft limit (what the process may open now) and the hard limit (how far it may raise it).
    public struct Values: Sendable, Equatable {
        /// The limit in force.
        public var soft: UInt64
        /// The ceiling the soft limit may be raised to without privileges.
        public var hard: UInt64
    }

    /// The limits now, or nil if they cannot be read.
    public static var current: Values? {
        var limit = rlimit()
        guard (try? blockingSyscall("getrlimit") { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }) != nil else { return nil }
        return Values(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, as servers commonly do at startup: distributions
    /// default the soft limit to 1024, which a few hundred clients with several connections each
    /// exhaust. Returns the limits in force afterwards; failing to raise leaves them as they were.
    @discardableResult
    public static func raiseSoftToHard() -> Values? {
        guard let before = current, before.soft < before.hard else { return current }
        var limit = rlimit(rlim_cur: rlim_t(before.hard), rlim_max: rlim_t(before.hard))
        _ = try? blockingSyscall("setrlimit") { setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }
        return current
    }
}
