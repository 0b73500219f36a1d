import Glibc

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are exactly the literal's UTF-8.
    func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        guard let baseAddress else { return true }
        return memcmp(baseAddress, literal.utf8Start, count) == 0
    }
}
