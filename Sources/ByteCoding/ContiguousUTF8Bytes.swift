/// A value whose UTF-8 bytes can be read where they lie, without a copy.
public protocol ContiguousUTF8Bytes {
    /// Calls `body` with the value's UTF-8 bytes, valid only during the call.
    func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result
}

extension StaticString: ContiguousUTF8Bytes {
    /// The literal's bytes (`withUTF8Buffer`, which also encodes a one-scalar literal).
    @inlinable @inline(__always)
    public func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUTF8Buffer { body(UnsafeRawBufferPointer($0)) }
    }
}

extension String: ContiguousUTF8Bytes {
    /// The string's own bytes, read in place (`withUTF8` would need a `var`, a copy); a string
    /// kept in other storage is copied into an array first.
    @inlinable @inline(__always)
    public func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(utf8).withUnsafeBytes(body)
    }
}

extension UnsafeBufferPointer: ContiguousUTF8Bytes where Element == UInt8 {
    /// The buffer's bytes, which the caller knows to be UTF-8.
    @inlinable @inline(__always)
    public func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(self))
    }
}

extension UnsafeRawBufferPointer: ContiguousUTF8Bytes {
    /// The buffer itself, whose bytes the caller knows to be UTF-8.
    @inlinable @inline(__always)
    public func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(self)
    }
}
