/// What a header value was made into the last time, kept for the next request on the same
/// connection: HTTP/2 clients send some values request after request (HPACK indexes them for
/// that reason; an APNs provider token), and comparing the bytes costs less than making the
/// strings again (UTF-8 validation, and an allocation past 15 bytes).
public struct RecentHeaderValue<Value> {
    @usableFromInline var bytes: [UInt8] = []
    @usableFromInline var value: Value?

    /// A cache with nothing kept yet.
    @inlinable
    public init() {}

    /// What `make` makes of `newBytes`: the kept value when the bytes are the same as last time.
    /// `make` must make the same value of the same bytes.
    @inlinable
    public mutating func value(for newBytes: UnsafeBufferPointer<UInt8>, _ make: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        if let value, bytes.withUnsafeBufferPointer({ $0.equals(newBytes) }) {
            return value
        }
        let made = make(newBytes)
        bytes = Array(newBytes)
        value = made
        return made
    }
}

extension RecentHeaderValue: Sendable where Value: Sendable {}
