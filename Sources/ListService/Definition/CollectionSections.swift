import Foundation

/// How a collection's lists fall into sections with headers (`group=`): which groupings it
/// offers and the sort each needs, which section an item falls in, and what a section's
/// heading and summary say, display-ready for the client. Along a list sorted as its grouping
/// needs, an item's section changes only at section boundaries, so the engine finds every
/// section of a million-item list by binary searches, not by visiting each item.
package protocol CollectionSections: CollectionPresentation {
    /// The ways to group (`day`, `month`, `status` for orders).
    associatedtype Grouping: ListChoice

    /// The sort `grouping` needs (`group=day` needs `sort=date`).
    static func sortField(for grouping: Grouping) -> SortField
    /// The section `item` falls in: a number equal for the items of one section and changing
    /// only where a section ends, along the list in either direction of its sort.
    static func section(of item: Item, grouping: Grouping, in context: SectionContext) -> Int64
    /// The section's stable key (`2026-11-23`, `pending`, `A`): what rows name as `sectionKey`
    /// and live deltas identify a section by.
    static func sectionKey(_ section: Int64, grouping: Grouping, in context: SectionContext) -> String
    /// The section's heading for the client: `title` ("Today", "November 2026"), `subtitle`
    /// where one helps ("Thursday, November 26"), and when either changes by itself (nil: never).
    static func heading(
        of section: Int64, grouping: Grouping, in context: SectionContext, writing row: inout RowContext<Phrases>
    ) -> (title: String, subtitle: String?, validUntil: Date?)
    /// Whether a section of `grouping` has a summary (of `summaryValue` over its items).
    static func summarizes(_ grouping: Grouping) -> Bool
    /// What the item at `item` adds to its section's summary. A summary visits every item of
    /// the list, so the item is read where it lies, field by field (`item.pointee.total`):
    /// passed by value, each of a million orders was copied, strings and all (0.4 s a list).
    static func summaryValue(of item: UnsafePointer<Item>, grouping: Grouping, in context: SectionContext) -> Int64
    /// When the summary value of the item at `item` changes by itself (a task falls overdue);
    /// nil for never. Read in place, as `summaryValue`.
    static func summaryExpiry(of item: UnsafePointer<Item>, grouping: Grouping, in context: SectionContext) -> Date?
    /// A section's summary from its total ("≈ $12,345.67", "3 overdue"); nil for none.
    static func summary(of total: Int64, grouping: Grouping, in context: inout RowContext<Phrases>) -> String?
}

extension CollectionSections {
    package static func summarizes(_ grouping: Grouping) -> Bool { false }
    package static func summaryValue(of item: UnsafePointer<Item>, grouping: Grouping, in context: SectionContext) -> Int64 { 0 }
    package static func summaryExpiry(of item: UnsafePointer<Item>, grouping: Grouping, in context: SectionContext) -> Date? { nil }
    package static func summary(of total: Int64, grouping: Grouping, in context: inout RowContext<Phrases>) -> String? { nil }
}

/// Where and when sections are found: the client's zone and locale, and the instant.
package struct SectionContext: Sendable {
    package let display: DisplayContext
    package let now: Date
    package let timeZone: TimeZone
    /// The client's calendar, in its zone, with its locale's first day of the week.
    package let calendar: Calendar
    /// Today in the client's zone, as days since 1970-01-01.
    package private(set) var today: Int64 = 0
    /// The client's next midnight.
    package private(set) var nextMidnight = Date.distantFuture
    /// When the client's current week ends (by its locale's first day of the week).
    package private(set) var endOfWeek = Date.distantFuture
    /// When the client's current year ends.
    package private(set) var endOfYear = Date.distantFuture

    package init(display: DisplayContext, now: Date) {
        self.display = display
        self.now = now
        timeZone = DisplayContext.timeZone(named: display.timeZoneIdentifier) ?? TimeZone(identifier: "UTC") ?? .current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: display.localeTag.replacingOccurrences(of: "-", with: "_"))
        self.calendar = calendar
        today = localDay(of: now)
        nextMidnight = start(ofLocalDay: today + 1)
        endOfWeek = calendar.dateInterval(of: .weekOfYear, for: now)?.end ?? nextMidnight
        endOfYear = calendar.dateInterval(of: .year, for: now)?.end ?? .distantFuture
    }

    /// Days since 1970-01-01 of `date`'s calendar day in the client's zone.
    package func localDay(of date: Date) -> Int64 {
        Int64(((date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))) / 86_400).rounded(.down))
    }

    /// Hours since 1970-01-01T00 of `date`'s hour on the client's clock.
    package func localHour(of date: Date) -> Int64 {
        Int64(((date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))) / 3_600).rounded(.down))
    }

    /// The instant the client's local day `day` (days since 1970-01-01) starts.
    package func start(ofLocalDay day: Int64) -> Date {
        let components = LocalDate(daysSince1970: day)
        return calendar.date(from: DateComponents(year: components.year, month: components.month, day: components.day))
            ?? Date(timeIntervalSince1970: Double(day) * 86_400)
    }

    /// An instant in the middle of the client's local hour `hour` (hours since 1970-01-01T00),
    /// clear of any zone transition's edge: what its heading is formatted from.
    package func middle(ofLocalHour hour: Int64) -> Date {
        let wall = Double(hour) * 3_600 + 1_800
        return Date(timeIntervalSince1970: wall - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))))
    }
}

/// A proleptic Gregorian date from days since 1970-01-01.
package struct LocalDate: Equatable {
    package let year: Int
    package let month: Int
    package let day: Int

    package init(daysSince1970 days: Int64) {
        (year, month, day) = ISO8601.civilFromDays(Int(days))
    }

    /// `YYYY-MM-DD`.
    package var isoText: String {
        "\(String(zeroPadded: year, width: 4))-\(String(zeroPadded: month, width: 2))-\(String(zeroPadded: day, width: 2))"
    }
}

extension SectionContext {
    /// The heading of the client's local day `day`: "Today", "Yesterday" or "Tomorrow" with the
    /// date beneath, else the date ("Monday, November 23"; with its year when not this year);
    /// and when the heading changes (the next midnight near today, else the year's end).
    package func dayHeading(_ day: Int64, formatting: inout DisplayFormatters.Formatting) -> (
        title: String, subtitle: String?, validUntil: Date?
    ) {
        let date = middle(ofLocalHour: day * 24 + 12)  // noon: clear of any zone transition
        let isThisYear = LocalDate(daysSince1970: day).year == LocalDate(daysSince1970: today).year
        let text = formatting.date(date, template: isThisYear ? "EEEEMMMMd" : "EEEEMMMMdy")
        let validUntil = abs(day - today) <= 2 ? nextMidnight : (isThisYear || day > today ? endOfYear : nil)
        if let relative = SectionPhrases.translations.phrases(for: display.localeTag).relativeDay(day - today) {
            return (relative, text, validUntil)
        }
        return (text, nil, validUntil)
    }
}
