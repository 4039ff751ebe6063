import Basics
import Foundation

extension TimeZone {
    /// Days since 1970-01-01 of `date`'s calendar day in this zone.
    package func localDay(of date: Date) -> Int64 {
        Int64(((date.timeIntervalSince1970 + Double(secondsFromGMT(for: date))) / 86_400).rounded(.down))
    }

    /// Hours since 1970-01-01T00 of `date`'s hour on this zone's clock.
    package func localHour(of date: Date) -> Int64 {
        Int64(((date.timeIntervalSince1970 + Double(secondsFromGMT(for: date))) / 3_600).rounded(.down))
    }
}

/// Calendar arithmetic in a client's time zone: months and days.
package enum CalendarDays {
    static func calendar(in zoneName: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = DisplayContext.zone(named: zoneName)
        return calendar
    }

    /// The month last found per time zone: while `now` lies in it, it is the month containing
    /// `now` (a `currentMonth` list asks at every request, and the calendar took a tenth of it).
    private static let recentMonths = Locked<[String: Range<Date>]>([:])

    /// The calendar month containing `now` in the named time zone.
    package static func month(containing now: Date, in zoneName: String) -> Range<Date> {
        if let known = recentMonths.withLock({ $0[zoneName] }), known.contains(now) { return known }
        guard let interval = calendar(in: zoneName).dateInterval(of: .month, for: now) else { return now..<now }
        let month = interval.start..<interval.end
        recentMonths.withLock { $0.remember(month, for: zoneName, upTo: 1024) }
        return month
    }

    /// The calendar day containing `date` in the named time zone.
    package static func day(containing date: Date, in zoneName: String) -> Range<Date> {
        guard let interval = calendar(in: zoneName).dateInterval(of: .day, for: date) else { return date..<date }
        return interval.start..<interval.end
    }

    /// The day `YYYY-MM-DD` in the named time zone; nil if no such date.
    package static func day(named text: String, in zoneName: String) -> Range<Date>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...12).contains(month), (1...ISO8601.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let calendar = calendar(in: zoneName)
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            let end = calendar.date(byAdding: .day, value: 1, to: start)
        else { return nil }
        return start..<end
    }

    /// `YYYY-MM-DD` of the day containing `date` in the named time zone.
    package static func dayName(of date: Date, in zoneName: String) -> String {
        let parts = calendar(in: zoneName).dateComponents([.year, .month, .day], from: date)
        return "\(String(zeroPadded: parts.year ?? 0, width: 4))-\(String(zeroPadded: parts.month ?? 0, width: 2))-"
            + String(zeroPadded: parts.day ?? 0, width: 2)
    }
}
