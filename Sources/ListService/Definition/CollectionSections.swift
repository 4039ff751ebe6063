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
    /// The keys of a list's sections, in order, from their `section` numbers: a key seen
    /// before (a locale's letter the list's order does not keep together) is numbered (`A~2`).
    static func sectionKeys(of sections: some Sequence<Int64>, grouping: Grouping, in context: SectionContext) -> [String] {
        var seen: [String: Int] = [:]
        return sections.map { section in
            let key = sectionKey(section, grouping: grouping, in: context)
            let occurrence = (seen[key] ?? 0) + 1
            seen[key] = occurrence
            return occurrence == 1 ? key : "\(key)~\(occurrence)"
        }
    }

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
    /// Today in the client's zone, as days since 1970-01-01.
    package let today: Int64
    /// The client's next midnight.
    package let nextMidnight: Date
    /// When the client's current week ends (by its locale's first day of the week).
    package let endOfWeek: Date
    /// When the client's current year ends.
    package let endOfYear: Date

    package init(display: DisplayContext, now: Date) {
        self.display = display
        self.now = now
        timeZone = display.timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: display.localeTag.replacingOccurrences(of: "-", with: "_"))
        today = timeZone.localDay(of: now)
        let tomorrow = LocalDate(daysSince1970: today + 1)
        nextMidnight =
            calendar.date(from: DateComponents(year: tomorrow.year, month: tomorrow.month, day: tomorrow.day))
            ?? Date(timeIntervalSince1970: Double(today + 1) * 86_400)
        endOfWeek = calendar.dateInterval(of: .weekOfYear, for: now)?.end ?? nextMidnight
        endOfYear = calendar.dateInterval(of: .year, for: now)?.end ?? .distantFuture
    }

    /// Noon of the client's local day `day`: what a day's heading is formatted from.
    package func noon(ofLocalDay day: Int64) -> Date { middle(ofLocalHour: day * 24 + 12) }

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
        let date = noon(ofLocalDay: day)
        let isThisYear = LocalDate(daysSince1970: day).year == LocalDate(daysSince1970: today).year
        let text = formatting.date(date, template: isThisYear ? "EEEEMMMMd" : "EEEEMMMMdy")
        let validUntil = abs(day - today) <= 2 ? nextMidnight : (isThisYear || day > today ? endOfYear : nil)
        if let relative = SectionPhrases.translations.phrases(for: display.localeTag).relativeDay(day - today) {
            return (relative, text, validUntil)
        }
        return (text, nil, validUntil)
    }
}
