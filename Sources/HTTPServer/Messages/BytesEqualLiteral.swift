import Glibc

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are exactly the literal's UTF-8.
    public func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        guard let baseAddress else { return true }
        return memcmp(baseAddress, literal.utf8Start, count) == 0
    }

    /// Whether the bytes begin with the literal's UTF-8 and go on past it: for header names read
    /// on every request (a generic prefix comparison costs about a hundred instructions).
    public func startsLonger(than literal: StaticString) -> Bool {
        guard count > literal.utf8CodeUnitCount, let baseAddress else { return false }
        return memcmp(baseAddress, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }

    /// Whether the bytes are exactly `other`'s: `memcmp`, as a bounds-checked loop costs several
    /// instructions a byte.
    @usableFromInline
    func equals(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard let baseAddress, let otherBase = other.baseAddress else { return true }
        return memcmp(baseAddress, otherBase, count) == 0
    }
}
