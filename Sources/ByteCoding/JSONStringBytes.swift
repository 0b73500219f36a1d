/// The bytes of a JSON string that need a look, found eight at a time (see `WordBytes`): what
/// the reader must check or decode.
public enum JSONStringBytes {
    /// The flag of each byte of `word` that a JSON string escapes: `"`, `\` or a control
    /// character (below 0x20). The lowest byte flagged is exact.
    @inlinable @inline(__always)
    public static func escapeFlags(_ word: UInt64) -> UInt64 {
        WordBytes.flags(below: 0x20, in: word)
            | WordBytes.flags(equalTo: UInt8(ascii: "\""), in: word)
            | WordBytes.flags(equalTo: UInt8(ascii: "\\"), in: word)
    }

    /// The flag of each byte of `word` that the reader looks at: what `escapeFlags` flags, and
    /// bytes that are not ASCII (which it checks as UTF-8). The lowest byte flagged is exact.
    @inlinable @inline(__always)
    public static func lookFlags(_ word: UInt64) -> UInt64 {
        escapeFlags(word) | WordBytes.nonASCIIFlags(in: word)
    }

    /// Whether one of the eight bytes in `word` needs the reader's look.
    @inlinable @inline(__always)
    public static func needsLook(_ word: UInt64) -> Bool {
        lookFlags(word) != 0
    }
}
