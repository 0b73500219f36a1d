/// An instant on the emulator's clock, in milliseconds since the Unix epoch.
///
/// Every time the emulator reports (`sentAt`, `registeredAt`, the clock's `now`) is one of these,
/// so that JSON output and rule checks agree to the millisecond.
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSinceEpoch: Int64

    /// Makes an instant from milliseconds since the epoch.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// Makes an instant from whole seconds since the epoch (as `apns-expiration` carries them),
    /// held within `earliest...latest`: a sender's header may hold any 19-digit number.
    public init(secondsSinceEpoch: Int64) {
        self = Timestamp(millisecondsSinceEpoch: 0).adding(seconds: secondsSinceEpoch)
    }

    /// 0001-01-01T00:00:00Z, the earliest instant RFC 3339's four-digit years can write.
    public static let earliest = Timestamp(millisecondsSinceEpoch: -62_135_596_800_000)
    /// 9999-12-31T23:59:59.999Z, the latest instant RFC 3339's four-digit years can write.
    public static let latest = Timestamp(millisecondsSinceEpoch: 253_402_300_799_999)

    /// Whole seconds since the epoch, rounded down.
    public var secondsSinceEpoch: Int64 {
        Self.floorDivide(millisecondsSinceEpoch, 1000)
    }

    /// This instant moved by `seconds` (negative moves back), held within `earliest...latest`:
    /// a far `apns-expiration` or clock advance means "as far as can be written", not a trap.
    public func adding(seconds: Int64) -> Timestamp {
        let (milliseconds, overflowed) = seconds.multipliedReportingOverflow(by: 1000)
        let (sum, sumOverflowed) = millisecondsSinceEpoch.addingReportingOverflow(milliseconds)
        guard !overflowed, !sumOverflowed else { return seconds < 0 ? .earliest : .latest }
        return Timestamp(millisecondsSinceEpoch: min(max(sum, Self.earliest.millisecondsSinceEpoch), Self.latest.millisecondsSinceEpoch))
    }

    /// RFC 3339 in UTC, e.g. `2026-11-22T10:00:00Z`; milliseconds (`.250`) appear only when
    /// not zero, as Google's APIs print timestamps.
    public var rfc3339: String {
        let days = Self.floorDivide(millisecondsSinceEpoch, 86_400_000)
        let millisecondOfDay = millisecondsSinceEpoch - days * 86_400_000
        let (year, month, day) = Self.civilDate(daysSinceEpoch: days)
        let secondOfDay = millisecondOfDay / 1000
        let milliseconds = millisecondOfDay % 1000
        var text = Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
        text += "T" + Self.pad(secondOfDay / 3600, 2) + ":" + Self.pad(secondOfDay / 60 % 60, 2)
        text += ":" + Self.pad(secondOfDay % 60, 2)
        if milliseconds != 0 { text += "." + Self.pad(milliseconds, 3) }
        return text + "Z"
    }

    /// Earlier instants sort first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor < 0) ? quotient - 1 : quotient
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSinceEpoch + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
