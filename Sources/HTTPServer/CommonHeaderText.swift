import Glibc

/// Header names and values that most requests carry, handed out as string literals: making a
/// `String` from bytes validates them and, past 15 bytes, allocates, for every field of every
/// request. The length decides which single literal to compare with.
enum CommonHeaderText {
    /// The text of `bytes` (UTF-8; invalid sequences are replaced).
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch bytes.count {
        case 4 where equal(bytes, "POST"): return "POST"
        case 6 where equal(bytes, "accept"): return "accept"
        case 10 where equal(bytes, "user-agent"): return "user-agent"
        case 12 where equal(bytes, "content-type"): return "content-type"
        case 13 where equal(bytes, "authorization"): return "authorization"
        case 14 where equal(bytes, "content-length"): return "content-length"
        case 15 where equal(bytes, "accept-encoding"): return "accept-encoding"
        case 16 where equal(bytes, "application/json"): return "application/json"
        case 17 where equal(bytes, "x-goog-api-client"): return "x-goog-api-client"
        case 31 where equal(bytes, "application/json; charset=utf-8"): return "application/json; charset=utf-8"
        case 31 where equal(bytes, "application/json; charset=UTF-8"): return "application/json; charset=UTF-8"
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        memcmp(bytes.baseAddress!, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }
}
