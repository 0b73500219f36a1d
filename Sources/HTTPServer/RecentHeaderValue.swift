/// What a header value was made into the last time, kept for the next request on the same
/// connection: HTTP/2 clients send the same `:authority` and `:path` request after request
/// (HPACK indexes them for that reason), and comparing the bytes costs less than making the
/// strings again (UTF-8 validation, and an allocation past 15 bytes).
struct RecentHeaderValue<Value> {
    private var bytes: [UInt8] = []
    private var value: Value?

    /// What `make` makes of `newBytes`: the kept value when the bytes are the same as last time.
    /// `make` must make the same value of the same bytes.
    mutating func value(for newBytes: UnsafeBufferPointer<UInt8>, _ make: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        if let value, bytes.withUnsafeBufferPointer({ $0.equals(newBytes) }) {
            return value
        }
        let made = make(newBytes)
        bytes = Array(newBytes)
        value = made
        return made
    }
}
