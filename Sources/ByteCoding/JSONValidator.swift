/// Decides whether bytes are one JSON text that `JSONParser` accepts, and whether its value is
/// an object, without building the value: for a body that is checked and then kept as the bytes
/// it came in (an APNs payload), where building and freeing a `JSONValue` tree cost more than
/// the rest of the check.
///
/// It follows the parser rule for rule (grammar, UTF-8, escapes, nesting limit, one key per
/// object) with the parser's own escape and UTF-8 checks. Where an exact answer would need the
/// parser's own work it answers `undecided`, and the caller parses: a key with an escape or a
/// byte beyond ASCII (the parser compares keys as Swift strings, by canonical equivalence), an
/// object of more than 16 members (the parser hashes those), more than 64 keys of nested objects
/// open at once (this keeps them in a fixed buffer), a number with an exponent or more than 308
/// digits (the parser checks those for overflow). `JSONValidatorTests` and the JSON fuzz target
/// compare its answers with the parser's.
public enum JSONValidator {
    /// What `check` found.
    public enum Verdict: Sendable, Equatable {
        /// A JSON text whose value is an object.
        case object
        /// A JSON text whose value is an array, a string, a number, a literal.
        case otherValue
        /// Not a JSON text the parser accepts.
        case invalid
        /// Not decided here: the parser must say.
        case undecided
    }

    /// Checks `buffer`, with the parser's nesting limit `maxDepth`.
    public static func check(_ buffer: UnsafeRawBufferPointer, maxDepth: Int = JSONParser.defaultMaxDepth) -> Verdict {
        // The keys of the objects being read live on the stack: an array's appends each checked
        // its uniqueness and capacity.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * Walker.keyLimit) { keys in
            var walker = Walker(reader: JSONReader(buffer: buffer, maxDepth: maxDepth), keys: keys)
            do throws(Walker.Stop) {
                walker.reader.skipWhitespace()
                let isObject = !walker.reader.atEnd && walker.reader.bytes[walker.reader.index] == UInt8(ascii: "{")
                try walker.value(depth: 0)
                walker.reader.skipWhitespace()
                guard walker.reader.atEnd else { return .invalid }
                return isObject ? .object : .otherValue
            } catch {
                return error.verdict
            }
        }
    }

    /// Checks `bytes`, with the parser's nesting limit `maxDepth`.
    public static func check(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) -> Verdict {
        bytes.withUnsafeBytes { check($0, maxDepth: maxDepth) }
    }
}

/// The walk over one text: `JSONParser`'s reading, with nothing kept but the keys of the
/// objects it is inside.
private struct Walker {
    /// Why the walk ended early.
    struct Stop: Error {
        let verdict: JSONValidator.Verdict
        static let invalid = Stop(verdict: .invalid)
        static let undecided = Stop(verdict: .undecided)
    }

    /// The most members an object may have here before the parser must decide.
    static let memberLimit = 16
    /// The most keys of the objects being read at once (nested objects add up) before the
    /// parser must decide.
    static let keyLimit = 64

    var reader: JSONReader
    /// The keys of the objects being read, outermost first, in the first `keyCount` pairs: for
    /// each, the offset of its first byte and the offset past its last.
    let keys: UnsafeMutableBufferPointer<Int>
    var keyCount = 0

    init(reader: JSONReader, keys: UnsafeMutableBufferPointer<Int>) {
        self.reader = reader
        self.keys = keys
    }

    private var byte: UInt8 { reader.bytes[reader.index] }

    /// A value nested `depth` deep, as `JSONReader.parseValue(depth:key:)` reads it.
    mutating func value(depth: Int) throws(Stop) {
        reader.skipWhitespace()
        guard !reader.atEnd else { throw .invalid }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < reader.maxDepth else { throw .invalid }
            try object(depth: depth + 1)
        case UInt8(ascii: "["):
            guard depth < reader.maxDepth else { throw .invalid }
            try array(depth: depth + 1)
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        case UInt8(ascii: "t"): try word("true")
        case UInt8(ascii: "f"): try word("false")
        case UInt8(ascii: "n"): try word("null")
        default: throw .invalid
        }
    }

    private mutating func word(_ word: StaticString) throws(Stop) {
        do throws(JSONParseError) {
            try reader.expectWord(word)
        } catch {
            throw .invalid
        }
    }

    private mutating func object(depth: Int) throws(Stop) {
        reader.index += 1  // {
        let firstKey = keyCount
        defer { keyCount = firstKey }
        reader.skipWhitespace()
        if !reader.atEnd, byte == UInt8(ascii: "}") {
            reader.index += 1
            return
        }
        while true {
            reader.skipWhitespace()
            guard !reader.atEnd, byte == UInt8(ascii: "\"") else { throw .invalid }
            let (start, end, isPlainASCII) = try string()
            guard isPlainASCII, keyCount - firstKey < 2 * Self.memberLimit, keyCount < keys.count else { throw .undecided }
            var other = firstKey
            while other < keyCount {
                if keys[other + 1] - keys[other] == end - start, sameBytes(at: keys[other], and: start, count: end - start) {
                    throw .invalid
                }
                other += 2
            }
            keys[keyCount] = start
            keys[keyCount + 1] = end
            keyCount += 2
            reader.skipWhitespace()
            guard !reader.atEnd, byte == UInt8(ascii: ":") else { throw .invalid }
            reader.index += 1
            try value(depth: depth)
            reader.skipWhitespace()
            guard !reader.atEnd else { throw .invalid }
            switch byte {
            case UInt8(ascii: ","): reader.index += 1
            case UInt8(ascii: "}"):
                reader.index += 1
                return
            default: throw .invalid
            }
        }
    }

    /// Whether the `count` bytes at `first` and at `second` are the same (a word at a time, where
    /// the generic comparison of two slices cost about 50 instructions a key).
    private func sameBytes(at first: Int, and second: Int, count: Int) -> Bool {
        // Both ranges are keys already read, inside the buffer.
        let base = reader.bytes.baseAddress.unsafelyUnwrapped
        return WordBytes.equal(
            UnsafeRawBufferPointer(start: base + first, count: count), UnsafeRawBufferPointer(start: base + second, count: count))
    }

    private mutating func array(depth: Int) throws(Stop) {
        reader.index += 1  // [
        reader.skipWhitespace()
        if !reader.atEnd, byte == UInt8(ascii: "]") {
            reader.index += 1
            return
        }
        while true {
            try value(depth: depth)
            reader.skipWhitespace()
            guard !reader.atEnd else { throw .invalid }
            switch byte {
            case UInt8(ascii: ","): reader.index += 1
            case UInt8(ascii: "]"):
                reader.index += 1
                return
            default: throw .invalid
            }
        }
    }

    /// A string from its opening quote: where its text starts and ends, and whether it is plain
    /// ASCII without escapes (so that its bytes are its text).
    private mutating func string() throws(Stop) -> (start: Int, end: Int, isPlainASCII: Bool) {
        // The cursor in locals while the bytes run plain: kept in `reader`, it went through
        // memory at every step.
        let bytes = reader.bytes
        let count = bytes.count
        let start = reader.index + 1  // past the opening quote
        var index = start
        var isPlainASCII = true
        while true {
            // Eight bytes at a time up to the first that needs a look (exact: see `WordBytes`).
            while index &+ 8 <= count {
                let flags = JSONStringBytes.lookFlags(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if flags != 0 {
                    index &+= WordBytes.firstFlaggedByte(in: flags)
                    break
                }
                index &+= 8
            }
            guard index < count else { throw .invalid }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                reader.index = index &+ 1
                return (start, index, isPlainASCII)
            } else if byte == UInt8(ascii: "\\") {
                isPlainASCII = false
                // The parser's own check; what it decodes into the scratch buffer is not needed.
                reader.index = index
                reader.scratch.removeAll(keepingCapacity: true)
                do throws(JSONParseError) { try reader.parseEscape() } catch { throw .invalid }
                index = reader.index
            } else if byte < 0x20 {
                throw .invalid
            } else if byte >= 0x80 {
                isPlainASCII = false
                reader.index = index
                do throws(JSONParseError) { index &+= try reader.checkUTF8Sequence() } catch { throw .invalid }
            } else {
                index &+= 1
            }
        }
    }

    /// A number, by `JSONReader.parseNumber`'s grammar.
    private mutating func number() throws(Stop) {
        let start = reader.index
        if byte == UInt8(ascii: "-") { reader.index += 1 }
        guard !reader.atEnd, isDigit(byte) else { throw .invalid }
        if byte == UInt8(ascii: "0") {
            reader.index += 1
            if !reader.atEnd, isDigit(byte) { throw .invalid }
        } else {
            while !reader.atEnd, isDigit(byte) { reader.index += 1 }
        }
        if reader.index - start > 308 { throw .undecided }
        if !reader.atEnd, byte == UInt8(ascii: ".") {
            reader.index += 1
            guard !reader.atEnd, isDigit(byte) else { throw .invalid }
            while !reader.atEnd, isDigit(byte) { reader.index += 1 }
        }
        if !reader.atEnd, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            throw .undecided
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
