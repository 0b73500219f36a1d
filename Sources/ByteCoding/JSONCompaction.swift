/// JSON text without the whitespace between its tokens, for what keeps a document a long time
/// and shows it parsed (the message log: docs/fcm.md, "The message log"): padding a sender added
/// then costs nothing to keep.
public enum JSONCompaction {
    /// `bytes`, a JSON text the parser accepted, without the spaces, tabs and line breaks outside
    /// its strings, in an array of its own size; every token's bytes are unchanged, so it parses
    /// to the same value. Only string boundaries are followed (a quote no backslash escapes),
    /// which is all a text the parser accepted needs.
    public static func compacted(_ bytes: [UInt8]) -> [UInt8] {
        // Written into a buffer the size of the input, then copied into one of its own size:
        // the compact text is usually far smaller (that is why this is called).
        let kept = [UInt8](unsafeUninitializedCapacity: bytes.count) { output, count in
            var written = 0
            var inString = false
            var escaped = false
            for byte in bytes {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                    || byte == UInt8(ascii: "\t")
                {
                    continue
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                }
                output[written] = byte
                written += 1
            }
            count = written
        }
        guard kept.count < bytes.count else { return bytes }
        return [UInt8](unsafeUninitializedCapacity: kept.count) { output, count in
            _ = output.initialize(from: kept)
            count = kept.count
        }
    }
}
