extension JSONReader {
    /// Calls `body` with a reader at the start of `bytes`, for a decoder that reads a document
    /// straight into its own types: the reader must not outlive the call.
    @inlinable
    public static func reading<Result>(
        _ bytes: borrowing [UInt8], maxDepth: Int, _ body: (consuming JSONReader) -> Result
    ) -> Result {
        bytes.withUnsafeBytes { buffer in
            body(JSONReader(buffer: buffer, maxDepth: maxDepth))
        }
    }

    /// The byte at `index`, or nil at the end of the document.
    @inlinable @inline(__always)
    public var nextByte: UInt8? { atEnd ? nil : bytes[index] }

    /// Reads a plain key (`readPlainKey()`) and gives its position in `table`; nil for a key
    /// that is not plain or that `table` does not hold.
    @inlinable @inline(__always)
    public mutating func readPlainKey(in table: ShortKeyTable) -> Int? {
        guard let (key, prefix) = readPlainKey() else { return nil }
        return table.position(of: key, prefix: prefix)
    }
}
