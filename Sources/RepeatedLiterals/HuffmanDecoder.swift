/// Decodes HPACK's Huffman-coded strings (RFC 7541 §5.2) a bit at a time against the canonical
/// code's tables. Plain rather than fast: `RepeatedLiteralRewriter` decodes a value once per
/// connection, where nghttp2 would decode it in every request.
public enum HuffmanDecoder {
    /// For each code length in bits (the index, 0 to 30): the first code of that length, how many
    /// codes have it, and where its symbols start in `symbols`, which lists every symbol ordered by
    /// code length and then by symbol (the canonical code's order).
    private struct Tables {
        var firstCode = [UInt32](repeating: 0, count: 31)
        var count = [UInt32](repeating: 0, count: 31)
        var firstSymbol = [Int](repeating: 0, count: 31)
        var symbols: [Int] = []
    }

    private static let tables: Tables = {
        var tables = Tables()
        tables.symbols = HuffmanCode.lengths.indices.sorted { (HuffmanCode.lengths[$0], $0) < (HuffmanCode.lengths[$1], $1) }
        for length in HuffmanCode.lengths { tables.count[Int(length)] += 1 }
        var code: UInt32 = 0
        var symbolsBefore = 0
        for length in 1...30 {
            code = (code + tables.count[length - 1]) << 1
            tables.firstCode[length] = code
            tables.firstSymbol[length] = symbolsBefore
            symbolsBefore += Int(tables.count[length])
        }
        return tables
    }()

    /// The code of `symbol` (0 to 256) and its length in bits, as RFC 7541's Appendix B lists them.
    public static func code(of symbol: Int) -> (code: UInt32, length: Int) {
        let length = Int(HuffmanCode.lengths[symbol])
        let rank = tables.symbols[tables.firstSymbol[length]...].firstIndex(of: symbol)! - tables.firstSymbol[length]
        return (tables.firstCode[length] + UInt32(rank), length)
    }

    /// The bytes `encoded` stands for, or nil where RFC 7541 §5.2 makes it a decoding error: the
    /// EOS symbol inside it, or a last byte padded with more than 7 bits or with bits that are not
    /// all 1 (a prefix of EOS).
    public static func decode(_ encoded: UnsafeRawBufferPointer) -> [UInt8]? {
        let tables = Self.tables
        var decoded: [UInt8] = []
        decoded.reserveCapacity(encoded.count * 8 / 5)
        var code: UInt32 = 0
        var length = 0
        for byte in encoded {
            for shift in stride(from: 7, through: 0, by: -1) {
                code = code << 1 | UInt32(byte >> UInt8(shift) & 1)
                length += 1
                // Every code shorter than `length` is ruled out, so `code` is at least this
                // length's first code: the difference says whether it is one of them.
                let rank = code &- tables.firstCode[length]
                guard rank < tables.count[length] else { continue }
                let symbol = tables.symbols[tables.firstSymbol[length] + Int(rank)]
                if symbol == HuffmanCode.endOfString { return nil }
                decoded.append(UInt8(symbol))
                code = 0
                length = 0
            }
        }
        guard length <= 7, code == (1 << length) - 1 else { return nil }
        return decoded
    }
}
