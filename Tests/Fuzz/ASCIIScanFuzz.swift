// libFuzzer target for ASCIIScan and WordBytes.equal: for any bytes, each vectorizable or
// word-at-a-time check answers what the plain definition over the same bytes answers. Built by
// scripts/fuzz.sh ascii-scan with swiftc directly, from the ByteCoding sources alone.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzASCIIScan(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The checks read a string's UTF-8: invalid sequences become U+FFFD first, as in any string.
    let text = String(decoding: bytes, as: UTF8.self)
    let units = Array(text.utf8)
    let isHex = units.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    let hasUppercase = units.contains { (0x41...0x5A).contains($0) }
    precondition(ASCIIScan.isHex(text) == isHex, "isHex differs for \(units)")
    precondition(ASCIIScan.hasUppercase(text) == hasUppercase, "hasUppercase differs for \(units)")
    // Field values are checked as bytes, whatever they decode to.
    let isFieldValue = bytes.allSatisfy { $0 == 0x09 || $0 == 0x20 || (0x21...0x7E).contains($0) || $0 >= 0x80 }
    precondition(bytes.withUnsafeBytes { ASCIIScan.isFieldValue($0) } == isFieldValue, "isFieldValue differs for \(bytes)")
    // The input's two halves (and the first against itself) compared a word at a time.
    let half = bytes.count / 2
    let (front, back) = (Array(bytes[..<half]), Array(bytes[half..<(2 * half)]))
    for (left, right) in [(front, back), (front, front)] {
        let equal = left.withUnsafeBytes { a in right.withUnsafeBytes { b in WordBytes.equal(a, b) } }
        precondition(equal == (left == right), "WordBytes.equal differs for \(left) \(right)")
    }
    return 0
}
