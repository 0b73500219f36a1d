/// HPACK's integers (RFC 7541 §5.1): a value in the low bits of a first byte, continued in 7-bit
/// groups when it fills them.
enum HPACKInteger {
    /// The largest value read: a header block's lengths and indexes are far smaller, and the limit
    /// keeps the sum in range whatever the bytes say.
    static let maximum = 1 << 28

    /// Reads the integer whose first byte is at `position`, in the bits of `mask` (a prefix of 4 to 7
    /// bits: 0x0F to 0x7F), and moves `position` past it; nil when the bytes end before it does or
    /// it exceeds `maximum`.
    @inline(__always)
    static func read(_ bytes: UnsafeRawBufferPointer, at position: inout Int, end: Int, mask: UInt8) -> Int? {
        guard position < end else { return nil }
        let prefix = bytes[position] & mask
        position += 1
        guard prefix == mask else { return Int(prefix) }
        return readContinuation(bytes, at: &position, end: end, prefix: Int(mask))
    }

    /// The rest of an integer that filled its prefix: 7-bit groups, lowest first.
    private static func readContinuation(_ bytes: UnsafeRawBufferPointer, at position: inout Int, end: Int, prefix: Int) -> Int? {
        var value = prefix
        var shift = 0
        while position < end {
            let byte = bytes[position]
            position += 1
            value += Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value <= maximum ? value : nil }
            shift += 7
            if shift > 21 { return nil }
        }
        return nil
    }

    /// The integer `value` with a 7-bit prefix and a first bit of 0: a string's length when the
    /// string is not Huffman-coded.
    static func appendStringLength(_ value: Int, to output: inout [UInt8]) {
        guard value >= 0x7F else { return output.append(UInt8(value)) }
        output.append(0x7F)
        var rest = value - 0x7F
        while rest >= 0x80 {
            output.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }
}
