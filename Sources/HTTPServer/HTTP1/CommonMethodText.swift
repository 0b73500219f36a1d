/// Request methods handed out as string literals: making a `String` from bytes validates them,
/// for every request. The length decides which literals to compare with.
enum CommonMethodText {
    /// The text of `bytes` (UTF-8; invalid sequences are replaced).
    static func method(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch bytes.count {
        case 3 where bytes.equals("GET"): return "GET"
        case 3 where bytes.equals("PUT"): return "PUT"
        case 4 where bytes.equals("POST"): return "POST"
        case 4 where bytes.equals("HEAD"): return "HEAD"
        case 5 where bytes.equals("PATCH"): return "PATCH"
        case 6 where bytes.equals("DELETE"): return "DELETE"
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }
}
