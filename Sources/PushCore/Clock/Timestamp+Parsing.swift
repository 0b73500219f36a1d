extension Timestamp {
    /// Reads what `rfc3339` writes: `2026-11-22T10:00:00Z`, with `.250` (one to three digits of
    /// fraction) when the milliseconds are not zero; UTC (`Z`) only. Nil for anything else, or a
    /// date that does not exist (`2026-02-30`).
    public init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var milliseconds: Int64 = 0
        if bytes.count > 20 {
            // `.` and one to three digits before the `Z`.
            let digits = bytes.count - 21
            guard bytes[19] == UInt8(ascii: "."), (1...3).contains(digits), let fraction = number(20..<(20 + digits))
            else { return nil }
            milliseconds = fraction * [100, 10, 1][digits - 1]
        }
        let days = Self.daysSinceEpoch(year: year, month: month, day: day)
        self.init(millisecondsSinceEpoch: ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milliseconds)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
