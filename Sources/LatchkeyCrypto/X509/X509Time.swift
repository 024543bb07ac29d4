import Foundation

/// A certificate validity instant (RFC 5280 §4.1.2.5) in its DER forms only: UTCTime `YYMMDDHHMMSSZ`
/// (years 1950–2049) and GeneralizedTime `YYYYMMDDHHMMSSZ` — seconds present, UTC (`Z`), no fraction.
enum X509Time {
    static func date(_ element: DERElement) throws(CryptoError) -> Date {
        let digits: Int
        if element.isPrimitive(DERElement.utcTime) {
            digits = 12
        } else if element.isPrimitive(DERElement.generalizedTime) {
            digits = 14
        } else {
            throw .malformedInput("X.509 time: neither UTCTime nor GeneralizedTime")
        }
        let bytes = [UInt8](element.contents)
        guard bytes.count == digits + 1, bytes[digits] == UInt8(ascii: "Z"),
              bytes[..<digits].allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .malformedInput("X.509 time: not the DER form")
        }
        func number(_ at: Int, _ count: Int) -> Int { bytes[at..<(at + count)].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        var year: Int, at: Int
        if digits == 12 {
            let yy = number(0, 2)
            year = yy >= 50 ? 1900 + yy : 2000 + yy
            at = 2
        } else {
            year = number(0, 4)
            at = 4
        }
        let month = number(at, 2), day = number(at + 2, 2)
        let hour = number(at + 4, 2), minute = number(at + 6, 2), second = number(at + 8, 2)
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else {
            throw .malformedInput("X.509 time: out of range")
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
