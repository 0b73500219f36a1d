/// A strict RFC 8259 parser from bytes to `JSONValue`.
///
/// Strict where the network makes leniency dangerous: the input must be UTF-8, strings may
/// not hold raw control characters or lone surrogates, numbers follow the RFC grammar, no
/// trailing commas, nothing after the value, nesting limited (objects and arrays together),
/// and a key may appear only once per object — Google's front end rejects a proto field
/// given twice, and `JSONObject` promises unique keys. Numbers keep their source text.
public enum JSONParser {
    /// The nesting limit Google's JSON parser uses.
    public static let defaultMaxDepth = 100

    /// Parses one JSON text.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        // withUnsafeBytes cannot forward a typed error, so the result travels out as a Result.
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBytes { buffer in
            var parser = JSONReader(buffer: buffer, maxDepth: maxDepth)
            do throws(JSONParseError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses one JSON text from memory the caller keeps alive for the call.
    public static func parse(_ buffer: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var parser = JSONReader(buffer: buffer, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses one JSON text held in a string.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

private enum ASCII {
    static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C, slash: UInt8 = 0x2F
    static let comma: UInt8 = 0x2C, colon: UInt8 = 0x3A, minus: UInt8 = 0x2D, plus: UInt8 = 0x2B
    static let dot: UInt8 = 0x2E, zero: UInt8 = 0x30, nine: UInt8 = 0x39
    static let openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
    static let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D
    static let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
    static let lowerE: UInt8 = 0x65, upperE: UInt8 = 0x45
    static let lowerT: UInt8 = 0x74, lowerF: UInt8 = 0x66, lowerN: UInt8 = 0x6E, lowerU: UInt8 = 0x75
    static let lowerB: UInt8 = 0x62, lowerR: UInt8 = 0x72

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}

/// The parser's cursor over the bytes; also what decoders that read a document straight into
/// their own types (rather than through `JSONValue`) read with, so that they take keys,
/// strings, literals and nested values by the parser's rules.
public struct JSONReader {
    /// The document.
    public let bytes: UnsafeRawBufferPointer
    /// The nesting limit of `parseValue(depth:key:)`.
    public let maxDepth: Int
    /// The offset of the next byte to read.
    public var index = 0
    /// Reused for strings that contain escapes.
    @usableFromInline var scratch: [UInt8]

    /// A reader at the start of `buffer`, which the caller keeps alive while it reads.
    @inlinable
    public init(buffer: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = buffer
        self.maxDepth = maxDepth
        self.scratch = []
    }

    /// Whether every byte has been read.
    @inlinable
    public var atEnd: Bool { index >= bytes.count }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue(depth: 0, key: "")
        skipWhitespace()
        if !atEnd { throw failure(.trailingContent) }
        return value
    }

    /// Moves past spaces, tabs and line breaks.
    @inlinable @inline(__always)
    public mutating func skipWhitespace() {
        // Most tokens follow their colon, comma or brace directly: one test, inline, settles
        // those (every whitespace byte is at most a space) without a call.
        guard index < bytes.count, bytes[index] <= UInt8(ascii: " ") else { return }
        skipWhitespaceRun()
    }

    @usableFromInline @inline(never)
    mutating func skipWhitespaceRun() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == ASCII.space || byte == ASCII.newline || byte == ASCII.carriageReturn || byte == ASCII.tab
            else { return }
            index += 1
        }
    }

    /// An error at the current position; "unexpected end" when the input ran out.
    func failure(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<position where bytes[i] == ASCII.newline {
            line += 1
            lineStart = i + 1
        }
        // Google quotes 20 bytes either side of the fault.
        let contextLength = 20
        let begin = max(position - contextLength, 0)
        let end = min(position + contextLength, bytes.count)
        let snippet = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[begin..<end]), as: UTF8.self)
        let structural: Bool
        switch reason {
        case .expectedValue, .unexpectedToken, .expectedKeyOrObjectEnd, .expectedKey, .expectedColon,
            .expectedCommaOrObjectEnd, .expectedValueOrArrayEnd, .expectedCommaOrArrayEnd:
            structural = true
        default:
            structural = false
        }
        return JSONParseError(
            reason: reason, atEndOfInput: structural && position >= bytes.count, offset: position,
            line: line, column: position - lineStart + 1,
            snippet: snippet, caret: String(repeating: " ", count: position - begin) + "^")
    }

    /// Parses the value at `index` (whitespace before it skipped), nested `depth` deep: objects
    /// and arrays in it may nest up to `maxDepth`. `key` is the member it is the value of, for
    /// the error that names it.
    public mutating func parseValue(depth: Int, key: String) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard !atEnd else { throw failure(.expectedValue) }
        switch bytes[index] {
        case ASCII.openBrace:
            guard depth < maxDepth else { throw failure(.tooDeep(key: key)) }
            return .object(try parseObject(depth: depth + 1))
        case ASCII.openBracket:
            guard depth < maxDepth else { throw failure(.tooDeep(key: key)) }
            return .array(try parseArray(depth: depth + 1))
        case ASCII.quote:
            return .string(try parseString())
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return .number(try parseNumber())
        case ASCII.lowerT:
            try expectWord("true")
            return .bool(true)
        case ASCII.lowerF:
            try expectWord("false")
            return .bool(false)
        case ASCII.lowerN:
            try expectWord("null")
            return .null
        case let byte where ASCII.isLetter(byte):
            throw failure(.unexpectedToken)
        case let byte where byte >= 0x80:
            _ = try checkUTF8Sequence()
            throw failure(.expectedValue)
        default:
            throw failure(.expectedValue)
        }
    }

    /// Consumes `word` or fails with "Unexpected token." at its start.
    public mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure(.unexpectedToken) }
        let start = word.utf8Start
        for i in 0..<count where bytes[index + i] != start[i] {
            throw failure(.unexpectedToken)
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONObject {
        index += 1  // {
        var members: [JSONObject.Member] = []
        // Small objects are checked for duplicates by a scan; large ones through a set, so
        // a hostile body with thousands of keys stays linear.
        var seenKeys: Set<String>? = nil
        skipWhitespace()
        if !atEnd && bytes[index] == ASCII.closeBrace {
            index += 1
            return JSONObject(members)
        }
        while true {
            skipWhitespace()
            guard !atEnd, bytes[index] == ASCII.quote else {
                throw failure(members.isEmpty ? .expectedKeyOrObjectEnd : .expectedKey)
            }
            let keyOffset = index
            let key = try parseString()
            if seenKeys == nil && members.count >= 16 { seenKeys = Set(members.map(\.key)) }
            let duplicate: Bool
            if seenKeys != nil {
                duplicate = !seenKeys!.insert(key).inserted
            } else {
                duplicate = members.contains { $0.key == key }
            }
            if duplicate { throw failure(.duplicateKey(key), at: keyOffset) }
            skipWhitespace()
            guard !atEnd, bytes[index] == ASCII.colon else { throw failure(.expectedColon) }
            index += 1
            let value = try parseValue(depth: depth, key: key)
            skipWhitespace()
            guard !atEnd else { throw failure(.expectedCommaOrObjectEnd) }
            let more: Bool
            switch bytes[index] {
            case ASCII.comma: more = true
            case ASCII.closeBrace: more = false
            default: throw failure(.expectedCommaOrObjectEnd)
            }
            index += 1
            if members.isEmpty {
                // An object of one member (`{"aps": ...}`, often) gets an array made for just it;
                // a longer one room for a typical object at once, instead of growing through 1,
                // 2 and 4 members. Reserving room in the empty array costs about twice as much.
                if !more { return JSONObject([JSONObject.Member(key: key, value: value)]) }
                members.reserveCapacity(4)
            }
            members.append(JSONObject.Member(key: key, value: value))
            if !more { return JSONObject(members) }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> [JSONValue] {
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if !atEnd && bytes[index] == ASCII.closeBracket {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            if elements.isEmpty, atEnd { throw failure(.expectedValueOrArrayEnd) }
            elements.append(try parseValue(depth: depth, key: ""))
            skipWhitespace()
            guard !atEnd else { throw failure(.expectedCommaOrArrayEnd) }
            switch bytes[index] {
            case ASCII.comma: index += 1
            case ASCII.closeBracket:
                index += 1
                return elements
            default: throw failure(.expectedCommaOrArrayEnd)
            }
        }
    }

    /// Parses a string starting at its opening quote.
    @inlinable @inline(__always)
    public mutating func parseString() throws(JSONParseError) -> String {
        // Inline at every caller: most strings of a request are short plain ASCII, and a call
        // with the general parser's frame cost more than finding and making one.
        if let short = parseShortPlainString() { return short }
        return try parseAnyString()
    }

    /// The string at `index` (its opening quote) when its closing quote comes within the next
    /// 16 bytes and nothing before it needs a look: made straight from the words read, and
    /// `index` moved past it. Nil, having moved nothing, for any other string.
    @inlinable @inline(__always)
    mutating func parseShortPlainString() -> String? {
        let start = index &+ 1
        // Whole words only.
        guard start &+ 8 <= bytes.count else { return nil }
        let base = bytes.baseAddress.unsafelyUnwrapped + start
        let low = base.loadUnaligned(as: UInt64.self)
        var flags = JSONStringBytes.lookFlags(low)
        var count = 0
        var high: UInt64 = 0
        if flags == 0 {
            guard start &+ 16 <= bytes.count else { return nil }
            high = base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            flags = JSONStringBytes.lookFlags(high)
            guard flags != 0 else { return nil }
            count = 8
        }
        // The lowest byte flagged is the first that needs a look (see `JSONStringBytes`): the
        // string is plain when that byte is its closing quote.
        let quoteOffset = WordBytes.firstFlaggedByte(in: flags)
        guard base.load(fromByteOffset: count &+ quoteOffset, as: UInt8.self) == UInt8(ascii: "\"") else { return nil }
        count &+= quoteOffset
        index = start &+ count &+ 1
        return String(decoding: UnsafeRawBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Parses any string starting at its opening quote: `parseString` when the string is not
    /// short and plain.
    @usableFromInline @inline(never)
    mutating func parseAnyString() throws(JSONParseError) -> String {
        index += 1  // "
        var runStart = index
        // Most strings are plain ASCII: skip over those bytes in a tight loop first, eight at a time
        // while no byte of the eight needs a look (the tests can only err towards looking).
        var position = index
        while position + 8 <= bytes.count {
            let flags = JSONStringBytes.lookFlags(bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // The lowest byte flagged is the first that needs a look: go straight to it rather
            // than byte by byte through the rest of a short string.
            if flags != 0 {
                position += WordBytes.firstFlaggedByte(in: flags)
                break
            }
            position += 8
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 || byte >= 0x80 { break }
            position += 1
        }
        // Stopped at the closing quote: plain ASCII, no escapes, nothing left to check.
        if position < bytes.count, bytes[position] == ASCII.quote {
            index = position + 1
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[runStart..<position]), as: UTF8.self)
        }
        index = position
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                let run = UnsafeRawBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                if !escaped { return String(decoding: run, as: UTF8.self) }
                scratch.append(contentsOf: run)
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == ASCII.backslash {
                // Cleared only here: most strings have no escape and never touch the scratch buffer.
                if !escaped { scratch.removeAll(keepingCapacity: true) }
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
                escaped = true
                try parseEscape()
                runStart = index
            } else if byte < 0x20 {
                throw failure(.controlCharacterInString)
            } else if byte < 0x80 {
                index += 1
            } else {
                index += try checkUTF8Sequence()
            }
        }
        throw failure(.unterminatedString, at: bytes.count)
    }

    /// Decodes the escape at `index` (a backslash) into `scratch`.
    mutating func parseEscape() throws(JSONParseError) {
        let start = index
        guard index + 1 < bytes.count else { throw failure(.unterminatedString, at: bytes.count) }
        let letter = bytes[index + 1]
        let simple: UInt8?
        switch letter {
        case ASCII.quote: simple = ASCII.quote
        case ASCII.backslash: simple = ASCII.backslash
        case ASCII.slash: simple = ASCII.slash
        case ASCII.lowerB: simple = 0x08
        case ASCII.lowerF: simple = 0x0C
        case ASCII.lowerN: simple = ASCII.newline
        case ASCII.lowerR: simple = ASCII.carriageReturn
        case ASCII.lowerT: simple = ASCII.tab
        case ASCII.lowerU: simple = nil
        default: throw failure(.invalidEscape, at: start)
        }
        if let simple {
            scratch.append(simple)
            index += 2
            return
        }
        var scalar = try parseHex4(at: index + 2, escapeStart: start)
        index += 6
        if scalar >= 0xD800 && scalar <= 0xDBFF {
            guard index + 1 < bytes.count, bytes[index] == ASCII.backslash, bytes[index + 1] == ASCII.lowerU else {
                throw failure(.missingLowSurrogate, at: start)
            }
            let low = try parseHex4(at: index + 2, escapeStart: index)
            guard low >= 0xDC00 && low <= 0xDFFF else { throw failure(.invalidLowSurrogate, at: index) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            index += 6
        } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
            throw failure(.loneLowSurrogate, at: start)
        }
        // Every value left is a valid scalar: surrogates were handled above.
        for unit in UTF8.encode(Unicode.Scalar(scalar)!)! { scratch.append(unit) }
    }

    func parseHex4(at offset: Int, escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard offset + 4 <= bytes.count else {
            throw failure(offset >= bytes.count ? .unterminatedString : .invalidEscape, at: escapeStart)
        }
        var value: UInt32 = 0
        for i in offset..<offset + 4 {
            guard let digit = ASCII.hexValue(bytes[i]) else { throw failure(.invalidEscape, at: escapeStart) }
            value = value << 4 | digit
        }
        return value
    }

    /// Checks the multi-byte UTF-8 sequence at `index` (Unicode Table 3-7) and returns its length.
    func checkUTF8Sequence() throws(JSONParseError) -> Int {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw failure(.invalidUTF8)
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else {
            throw failure(.invalidUTF8)
        }
        for i in index + 2..<index + length where bytes[i] & 0xC0 != 0x80 {
            throw failure(.invalidUTF8)
        }
        return length
    }

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and returns its text.
    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if bytes[index] == ASCII.minus { index += 1 }
        guard !atEnd, ASCII.isDigit(bytes[index]) else { throw failure(.invalidNumber, at: start) }
        if bytes[index] == ASCII.zero {
            index += 1
            if !atEnd, ASCII.isDigit(bytes[index]) { throw failure(.leadingZero, at: start) }
        } else {
            while !atEnd, ASCII.isDigit(bytes[index]) { index += 1 }
        }
        let integerDigits = index - start
        var hasExponent = false
        if !atEnd, bytes[index] == ASCII.dot {
            index += 1
            guard !atEnd, ASCII.isDigit(bytes[index]) else { throw failure(.invalidNumber, at: start) }
            while !atEnd, ASCII.isDigit(bytes[index]) { index += 1 }
        }
        if !atEnd, bytes[index] == ASCII.lowerE || bytes[index] == ASCII.upperE {
            hasExponent = true
            index += 1
            if !atEnd, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
            guard !atEnd, ASCII.isDigit(bytes[index]) else { throw failure(.invalidNumber, at: start) }
            while !atEnd, ASCII.isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        // Only an exponent or more than 308 integer digits can overflow a double; converting
        // every number would cost time on every request for nothing.
        if hasExponent || integerDigits > 308, let double = Double(text), !double.isFinite {
            throw failure(.numberOutOfRange, at: start)
        }
        return text
    }
}
