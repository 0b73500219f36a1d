/// Where a header field's value sits in an HPACK header block, for a field that the decoder
/// does not add to its table (literal without indexing or never indexed, RFC 7541 §6.2.2-3) and
/// whose value is Huffman-coded: the only kind a client sends again in full in every request.
struct UnindexedHuffmanValue {
    /// The value's first byte, which holds the Huffman flag and the start of its length.
    var lengthStart: Int
    /// The Huffman-coded bytes.
    var encoded: Range<Int>
}

/// The `UnindexedHuffmanValue`s of the header block in `bytes[start..<end]`, in order. The walk
/// reads only the representations' integers and string lengths, never a table: it stops at a
/// block cut short or an integer out of range, and says so in `isMalformed` (nothing is then to
/// be changed: nghttp2 reports such a block as it is).
struct UnindexedHuffmanValues: IteratorProtocol {
    private let bytes: UnsafeRawBufferPointer
    private let end: Int
    private var position: Int
    /// Whether the walk stopped before the block's end.
    private(set) var isMalformed = false

    init(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        self.bytes = bytes
        self.end = end
        position = start
    }

    mutating func next() -> UnindexedHuffmanValue? {
        while position < end {
            let first = bytes[position]
            if first > 0x80 && first < 0xFF {
                // An indexed field whose index fits its first byte: most fields of a block.
                position += 1
                continue
            }
            if first & 0x80 != 0 || first & 0xE0 == 0x20 {
                // An indexed field (7-bit index) or a dynamic table size update (5-bit size).
                guard HPACKInteger.read(bytes, at: &position, end: end, mask: first & 0x80 != 0 ? 0x7F : 0x1F) != nil else { return malformed() }
                continue
            }
            let isIndexed = first & 0xC0 == 0x40
            guard let nameIndex = HPACKInteger.read(bytes, at: &position, end: end, mask: isIndexed ? 0x3F : 0x0F) else { return malformed() }
            if nameIndex == 0 {
                guard let nameLength = HPACKInteger.read(bytes, at: &position, end: end, mask: 0x7F),
                      nameLength <= end - position
                else { return malformed() }
                position += nameLength
            }
            guard position < end else { return malformed() }
            let lengthStart = position
            let isHuffman = bytes[position] & 0x80 != 0
            guard let valueLength = HPACKInteger.read(bytes, at: &position, end: end, mask: 0x7F),
                  valueLength <= end - position
            else { return malformed() }
            position += valueLength
            if !isIndexed && isHuffman {
                return UnindexedHuffmanValue(lengthStart: lengthStart, encoded: (position - valueLength)..<position)
            }
        }
        return nil
    }

    private mutating func malformed() -> UnindexedHuffmanValue? {
        isMalformed = true
        position = end
        return nil
    }
}
