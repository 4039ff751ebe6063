import Foundation

/// How a collection's items are shown: its display row and detail, written display-ready for
/// the client's locale and zone with its phrases in the client's language, when a row's text
/// changes by itself, and, for a collection also on a map, its markers.
package protocol CollectionPresentation: CollectionQuery {
    /// The words rows show beyond formatted values ("Free shipping"), per language.
    associatedtype Phrases: Sendable

    /// The collection's phrases in every language it translates.
    static var translations: Translations<Phrases> { get }
    /// Writes the members of the item's display row; the engine opens and closes the object
    /// and adds the item's `version`.
    static func writeRow(_ item: Item, in context: inout RowContext<Phrases>, to json: inout JSONWriter)
    /// Writes the members a detail screen and an edit form need beyond the row's (`GET
    /// /{name}/:id`, the answer to a write); none by default.
    static func writeDetail(_ item: Item, in context: inout RowContext<Phrases>, to json: inout JSONWriter)
    /// When a row's text changes by itself ("Due today" at midnight, `isOverdue` at the due
    /// time); nil for never.
    static func rowExpiry(of item: Item, in context: RowContext<Phrases>) -> Date?

    /// For a collection also shown on a map: how markers are ordered (largest drawn first,
    /// say). Nil: no map. A list and a map of one session share its selection.
    static var markerSort: (field: SortField, direction: SortDirection)? { get }
    /// Writes the members of an item's map marker (the engine opens and closes the object).
    static func writeMarker(_ item: Item, in context: inout RowContext<Phrases>, to json: inout JSONWriter)
}

extension CollectionPresentation {
    package static func writeDetail(_ item: Item, in context: inout RowContext<Phrases>, to json: inout JSONWriter) {}
    package static func rowExpiry(of item: Item, in context: RowContext<Phrases>) -> Date? { nil }
    package static var markerSort: (field: SortField, direction: SortDirection)? { nil }
    package static func writeMarker(_ item: Item, in context: inout RowContext<Phrases>, to json: inout JSONWriter) {}
    /// Whether list responses echo the session's selection (collections with a map do).
    static var sharesSelection: Bool { markerSort != nil }
}

/// What a row is written with: formatters for the client, the collection's phrases in its
/// language, the time, and what the reader may see (the flags of what they may do follow it).
package struct RowContext<Phrases: Sendable> {
    package var formatting: DisplayFormatters.Formatting
    package let phrases: Phrases
    package let display: DisplayContext
    package let now: Date
    /// The reader's access: every reader of a list shares it, so a row may say what they may do.
    package let access: AccessScope
    /// The client's current calendar day, worked out once per page.
    package let today: Range<Date>
    /// The client's zone, as its formatter set found it once.
    var timeZone: TimeZone { formatting.timeZone }

    init(formatting: DisplayFormatters.Formatting, phrases: Phrases, display: DisplayContext, now: Date, access: AccessScope) {
        var formatting = formatting
        if let day = formatting.currentDay, day.contains(now) {
            today = day
        } else {
            today = CalendarDays.day(containing: now, in: display.timeZoneIdentifier)
            formatting.currentDay = today
        }
        self.formatting = formatting
        self.phrases = phrases
        self.display = display
        self.now = now
        self.access = access
    }

    /// Calendar days from today to the day of `date` in the client's zone (negative: past).
    package func calendarDays(until date: Date) -> Int {
        Int(timeZone.localDay(of: date) - timeZone.localDay(of: now))
    }
}
