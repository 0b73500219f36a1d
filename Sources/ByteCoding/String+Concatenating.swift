extension String {
    /// The string of `part`'s UTF-8 bytes: `String(decoding:as:)` for bytes known to be UTF-8,
    /// copied in one piece.
    @inlinable
    public init(concatenating part: some ContiguousUTF8Bytes) {
        self = part.withUTF8Bytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
                return bytes.count
            }
        }
    }

    /// The string of the UTF-8 bytes of four parts one after the other: `a + b + c + d` made in
    /// one buffer of the right size, by raw copies, rather than grown piece by piece. The parts
    /// must be UTF-8 (each one whole: a character is not split between two).
    ///
    /// Four parts, not a variadic list: the list would be an array allocated on every call, and
    /// a message's name (`projects/{project}/messages/{id}`), four parts, is made on every send.
    @inlinable @inline(__always)
    public init(
        concatenating a: some ContiguousUTF8Bytes, _ b: some ContiguousUTF8Bytes,
        _ c: some ContiguousUTF8Bytes, _ d: some ContiguousUTF8Bytes
    ) {
        self = a.withUTF8Bytes { a in
            b.withUTF8Bytes { b in
                c.withUTF8Bytes { c in
                    d.withUTF8Bytes { d in
                        String(unsafeUninitializedCapacity: a.count + b.count + c.count + d.count) { buffer in
                            // Raw copies: initializing through slices of the buffer goes element by element.
                            // (Not a loop over `[a, b, c, d]`: that array would be allocated.)
                            var written = 0
                            func put(_ part: UnsafeRawBufferPointer) {
                                UnsafeMutableRawBufferPointer(start: buffer.baseAddress! + written, count: part.count)
                                    .copyMemory(from: part)
                                written &+= part.count
                            }
                            put(a)
                            put(b)
                            put(c)
                            put(d)
                            return written
                        }
                    }
                }
            }
        }
    }
}
