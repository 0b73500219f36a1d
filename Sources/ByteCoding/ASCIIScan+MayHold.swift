extension ASCIIScan {
    /// Whether the JSON text `json` may hold `lowercasedNeedle` in one of its strings, compared
    /// without regard to case: false only when it surely does not. The message log's text search
    /// asks this before it parses an entry (docs/fcm.md, "The message log"): most entries do not
    /// match, and a byte search costs a small part of a parse.
    ///
    /// Exact for text of plain ASCII without escapes: its strings are its bytes, and ASCII letters
    /// fold alone. Any byte from 0x80 up (Unicode's case rules can fold one to ASCII, as the Kelvin
    /// sign to `k`) or a backslash (`\u0041` spells `A`), and the answer is true: parse to know.
    /// `lowercasedNeedle` is the needle's UTF-8, lowercased. `ASCIIScanTests` compare it with
    /// lowercasing and `contains` on the decoded text.
    public static func jsonMayHold(_ json: [UInt8], lowercasedNeedle needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        var unusual: UInt8 = 0
        for byte in json { unusual |= (byte & 0x80) | (byte == UInt8(ascii: "\\") ? 1 : 0) }
        if unusual != 0 || needle.contains(where: { $0 >= 0x80 }) { return true }
        guard json.count >= needle.count else { return false }
        for start in 0...(json.count - needle.count) where lowercased(json[start]) == first {
            var matched = 1
            while matched < needle.count, lowercased(json[start + matched]) == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
        }
        return false
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
