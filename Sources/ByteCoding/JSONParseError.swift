/// Why a byte sequence is not valid JSON, and where.
///
/// The reasons are worded as Google's front end words them (its messages come from the
/// protobuf JSON stream parser: "Expected , or } after key:value pair." and so on), so that
/// the FCM layer can answer `Invalid JSON payload received. <reason>\n<snippet>\n<caret>`
/// the way Google does. Google's parser is lenient where this one is strict (it accepts
/// trailing commas, single quotes, bare keys and raw control characters); the reasons for
/// those cases have no Google counterpart and are worded in the same style.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        /// A value was expected and something else came.
        case expectedValue
        /// A word that is not `true`, `false` or `null`.
        case unexpectedToken
        /// After `{`: neither a key nor `}`.
        case expectedKeyOrObjectEnd
        /// After a comma in an object: no key (trailing commas are rejected).
        case expectedKey
        /// A key not followed by `:`.
        case expectedColon
        /// A member not followed by `,` or `}`.
        case expectedCommaOrObjectEnd
        /// After `[`: neither a value nor `]`.
        case expectedValueOrArrayEnd
        /// An element not followed by `,` or `]`.
        case expectedCommaOrArrayEnd
        /// The input ended inside a string.
        case unterminatedString
        /// A backslash followed by something RFC 8259 does not allow.
        case invalidEscape
        /// A `\uD800`-`\uDBFF` escape not followed by a `\u` escape.
        case missingLowSurrogate
        /// A high surrogate escape followed by a `\u` escape that is not a low surrogate.
        case invalidLowSurrogate
        /// A low surrogate escape with no high surrogate before it.
        case loneLowSurrogate
        /// A raw byte below 0x20 inside a string.
        case controlCharacterInString
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// A number with a leading zero, such as `012`.
        case leadingZero
        /// A malformed number, such as `-`, `1.` or `1e`.
        case invalidNumber
        /// A number too large for a double, such as `1e999`.
        case numberOutOfRange
        /// Something after the value.
        case trailingContent
        /// More nested objects and arrays than the limit; `key` is the member that opened the
        /// container that went over (empty for array elements and the top level).
        case tooDeep(key: String)
        /// The same key twice in one object.
        case duplicateKey(String)

        /// Google's wording (or the same style, where Google has none).
        public var text: String {
            switch self {
            case .expectedValue: "Expected a value."
            case .unexpectedToken: "Unexpected token."
            case .expectedKeyOrObjectEnd: "Expected an object key or }."
            case .expectedKey: "Expected an object key after ,."
            case .expectedColon: "Expected : between key:value pair."
            case .expectedCommaOrObjectEnd: "Expected , or } after key:value pair."
            case .expectedValueOrArrayEnd: "Expected a value or ] within an array."
            case .expectedCommaOrArrayEnd: "Expected , or ] after array value."
            case .unterminatedString: "Closing quote expected in string."
            case .invalidEscape: "Invalid escape sequence."
            case .missingLowSurrogate: "Missing low surrogate."
            case .invalidLowSurrogate: "Invalid low surrogate."
            case .loneLowSurrogate: "Invalid unicode code point."
            case .controlCharacterInString: "Control characters must be escaped in strings."
            case .invalidUTF8: "Encountered non UTF-8 code points."
            case .leadingZero: "Octal/hex numbers are not valid JSON values."
            case .invalidNumber: "Unable to parse number."
            case .numberOutOfRange: "Number exceeds the range of double."
            case .trailingContent: "Parsing terminated before end of input."
            case .tooDeep(let key): "Message too deep. Max recursion depth reached for key '\(key)'"
            case .duplicateKey(let key): "Duplicate key \"\(key)\"."
            }
        }
    }

    /// What was wrong.
    public var reason: Reason
    /// True when the input ended where more was expected (Google then prefixes
    /// "Unexpected end of string. ").
    public var atEndOfInput: Bool
    /// Byte offset of the fault, from 0.
    public var offset: Int
    /// Line of the fault, from 1.
    public var line: Int
    /// Column of the fault in bytes, from 1.
    public var column: Int
    /// Up to 20 bytes of input either side of the fault, as Google quotes them.
    public var snippet: String
    /// Spaces then `^` under the fault in `snippet`.
    public var caret: String

    /// Makes an error; the parser fills in the position fields.
    public init(
        reason: Reason, atEndOfInput: Bool, offset: Int, line: Int, column: Int,
        snippet: String, caret: String
    ) {
        self.reason = reason
        self.atEndOfInput = atEndOfInput
        self.offset = offset
        self.line = line
        self.column = column
        self.snippet = snippet
        self.caret = caret
    }

    /// The part of Google's message after `Invalid JSON payload received. `:
    /// the reason, then the quoted input and a caret under the fault, on three lines.
    /// Google quotes no input for the depth limit, so neither does this.
    public var googleDescription: String {
        let prefix = atEndOfInput ? "Unexpected end of string. " : ""
        if case .tooDeep = reason { return reason.text }
        return prefix + reason.text + "\n" + snippet + "\n" + caret
    }

    /// A one-line description for logs: `line 3, column 7: Expected a value.`
    public var description: String {
        let prefix = atEndOfInput ? "Unexpected end of string. " : ""
        return "line \(line), column \(column): " + prefix + reason.text
    }
}
