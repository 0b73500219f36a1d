/// A `google.protobuf.Duration` in its JSON form: `"3.5s"`, `"-1.000000001s"`, `"0s"`.
public struct GoogleDuration: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// Whole seconds (negative for a negative duration).
    public var seconds: Int64
    /// Nanoseconds, 0...999_999_999, with the sign of `seconds` when `seconds` is not 0.
    public var nanos: Int32

    /// protobuf's limit: 10,000 years.
    static let maxSeconds: Int64 = 315_576_000_000

    /// Makes a duration.
    public init(seconds: Int64, nanos: Int32 = 0) {
        self.seconds = seconds
        self.nanos = nanos
    }

    /// Parses `-?<seconds>[.<1 to 9 digits>]s`, failing with protobuf's wording.
    public init(parsing text: String) throws(FormatError) {
        guard text.hasSuffix("s") else { throw FormatError("Illegal duration format; duration must end with 's'") }
        var body = Substring(text.dropLast())
        let negative = body.hasPrefix("-")
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard isDigits(parts[0]), let whole = Int64(parts[0]) else {
            throw FormatError("Invalid duration format, failed to parse seconds")
        }
        var fraction: Int32 = 0
        if parts.count == 2 {
            guard isDigits(parts[1]), parts[1].count <= 9 else {
                throw FormatError("Invalid duration format, failed to parse nano seconds")
            }
            fraction = Int32(parts[1] + String(repeating: "0", count: 9 - parts[1].count))!
        }
        guard whole <= GoogleDuration.maxSeconds else { throw FormatError("Duration value exceeds limits") }
        self.init(seconds: negative ? -whole : whole, nanos: negative ? -fraction : fraction)
    }

    /// Why a duration did not parse.
    public struct FormatError: Error, Sendable, Equatable {
        /// protobuf's message, which Google quotes after the type in `Invalid value at ...`.
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// Whole seconds, rounded toward negative infinity (a TTL of 2.9 s is 2 s).
    public var wholeSecondsRoundedDown: Int64 { nanos < 0 ? seconds - 1 : seconds }

    /// The JSON form: seconds, then 3, 6 or 9 fraction digits as protobuf writes them, then `s`.
    public var description: String {
        let negative = seconds < 0 || nanos < 0
        var text = negative ? "-" : ""
        text += String(seconds.magnitude)
        if nanos != 0 {
            var digits = String(nanos.magnitude)
            digits = String(repeating: "0", count: 9 - digits.count) + digits
            while digits.hasSuffix("000") { digits.removeLast(3) }
            text += "." + digits
        }
        return text + "s"
    }

    /// Orders by length of time.
    public static func < (lhs: GoogleDuration, rhs: GoogleDuration) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }
}
