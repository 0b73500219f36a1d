/// The names of the long-valued response headers (ids, dates: new in each response) a connection
/// has sent, for `HTTP2ResponseHead`. Such a value goes out without indexing: a table entry would
/// never be used again and would push out the entries that are. But the first of each name is
/// indexed, so that nghttp2's encoder finds the name in the connection's table afterwards and
/// refers to it, instead of Huffman-coding the name again in every response (docs/performance.md).
/// A name in HPACK's static table gains nothing (the encoder refers to that entry) and costs one
/// table entry a connection; the long values the server sends are `apns-id` and `apns-unique-id`.
struct HPACKLongValueNames {
    /// At most `limit` names, each at most `maxNameLength` bytes: a connection's memory for this
    /// stays small whatever its responses carry.
    private var names: [[UInt8]] = []
    static let limit = 8
    static let maxNameLength = 32

    /// Whether `name` is new here (and is now remembered): its header is then sent with indexing.
    mutating func isNew(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        for known in names where known.count == name.count {
            if known.withUnsafeBufferPointer({ $0.equals(name) }) { return false }
        }
        guard names.count < Self.limit, name.count <= Self.maxNameLength else { return false }
        names.append(Array(name))
        return true
    }
}
