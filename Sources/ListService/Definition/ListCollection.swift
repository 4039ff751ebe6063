import Foundation

/// A closed set of values a query parameter may take (`filter=pending`, `sort=total`).
package protocol ListChoice: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

/// Everything the engine needs to serve one collection, declared in one place: the model,
/// its named views (filters), searchable fields, sort keys and defaults, and its display row.
/// The engine does the rest for every collection: criteria parsing and 400s, per-session
/// view-models, shared results, pagination, ETags, metrics and routes.
package protocol ListCollection: Sendable {
    associatedtype Item: Sendable
    /// The named lists (`filter` for orders, `view` for tasks).
    associatedtype View: ListChoice
    associatedtype SortField: ListChoice
    /// The few fields filters read, extracted once per item so a scan stays in cache.
    associatedtype FilterFields: Sendable
    /// What a request adds to its view, decided when the request is read (this month in the
    /// client's zone, one day); part of what identifies a list.
    associatedtype Scope: Hashable & Sendable
    /// The words rows show beyond formatted values ("Free shipping"), per language.
    associatedtype Phrases: Sendable

    /// The path segment and name: `orders` serves `/orders`.
    static var name: String { get }
    /// One item, for messages: "No order with id …".
    static var itemName: String { get }
    /// The query parameter that picks the view; nil when the collection has one view only.
    static var viewParameter: String? { get }
    static var defaultView: View { get }
    /// Parameters of this collection beyond the common ones (`date` for earthquakes).
    static var scopeParameters: [String] { get }
    /// Extra spellings accepted for `order` (`forward`, `reverse`).
    static var directionAliases: [String: SortDirection] { get }

    static func defaultSortField(for view: View) -> SortField
    static func defaultDirection(for field: SortField, view: View) -> SortDirection

    /// Reads the collection's own parameters into the scope of the list.
    static func scope(
        for view: View, parameters: ParameterReader, display: DisplayContext, now: Date
    ) throws(ListServiceError) -> ResolvedScope<Scope>

    static func id(of item: Item) -> String
    static func filterFields(of item: Item) -> FilterFields
    /// The one definition of each view: whether an item with these fields belongs to it.
    static func matches(_ fields: FilterFields, view: View, scope: Scope) -> Bool
    /// Whether `view` holds every item (`all`), so a query need not test each one.
    static func holdsEveryItem(_ view: View) -> Bool
    /// The text `q` searches, one function per field (the engine folds what they give).
    static var searchableFields: [@Sendable (Item) -> String] { get }
    /// What `field` sorts by (the engine folds text once per distinct value where it can).
    static func sortValue(of item: Item, by field: SortField) -> SortValue

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

    /// The sequence number in an id the service assigned (`o-000123` → 123); new ids continue
    /// after the highest. Nil for ids the service does not assign.
    static func sequence(of id: String) -> Int?

    /// Writes an item in the shared data format, for journal records and snapshots.
    static func writeItem(_ item: Item, to json: inout JSONWriter)
    /// Reads an item in the shared data format (as `writeItem` writes it).
    static func decodeItem(_ value: JSONValue, path: String) throws(JSONFieldError) -> Item
    /// A whole data file of `items`, as `decodeItems` reads it (a JSON array by default).
    static func encodeDataFile(_ items: [Item]) -> [UInt8]
    /// Writes an item into a binary snapshot (its JSON text by default; a large collection
    /// writes fields, with repeated text shared). A change here needs a new
    /// `SnapshotFile.formatVersion`.
    static func writeSnapshotItem(_ item: Item, to snapshot: inout SnapshotWriter)
    /// Reads items as `writeSnapshotItem` wrote them: the reader it makes is called once per
    /// item, in order, and may share storage between the items it reads.
    static func makeSnapshotItemReader() -> (inout SnapshotReader) throws(SnapshotFormatError) -> Item

    /// What the collection does beside lists, rows and writes (`POST /{name}/{path}`): none
    /// by default.
    static func operations(writes: WriteCoordinator) -> [CollectionOperation]

    /// The embedded default data set.
    static func makeDefaultItems(anchor: Date) -> [Item]
    /// The data file's name in a `--data` directory.
    static var fileName: String { get }
    /// Whether a `--data` directory may lack the file; the embedded data is served then.
    static var isDataFileOptional: Bool { get }
    /// Decodes a data file.
    static func decodeItems(_ file: DataFileBytes) throws(DataLoadError) -> [Item]
}

extension ListCollection {
    /// The text `q` searches in `item`, one string per field.
    static func searchableText(of item: Item) -> [String] { searchableFields.map { $0(item) } }
    /// The key `item` sorts by on `field`.
    package static func sortKey(of item: Item, by field: SortField) -> SortKey { SortKey(sortValue(of: item, by: field)) }
    package static var scopeParameters: [String] { [] }
    package static var directionAliases: [String: SortDirection] { [:] }
    package static func rowExpiry(of item: Item, in context: RowContext<Phrases>) -> Date? { nil }
    package static var markerSort: (field: SortField, direction: SortDirection)? { nil }
    package static func sequence(of id: String) -> Int? { nil }
    package static func holdsEveryItem(_ view: View) -> Bool { false }
    package static var isDataFileOptional: Bool { false }
    package static func operations(writes: WriteCoordinator) -> [CollectionOperation] { [] }
    package static func writeDetail(_ item: Item, in context: inout RowContext<Phrases>, to json: inout JSONWriter) {}

    package static func encodeDataFile(_ items: [Item]) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256 * items.count)
        json.beginArray()
        for item in items { writeItem(item, to: &json) }
        json.endArray()
        return json.bytes
    }

    /// `item` as its data file's JSON record: what journals, snapshots, the database and
    /// item versions hold.
    package static func record(of item: Item) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256)
        writeItem(item, to: &json)
        return json.bytes
    }

    /// An item from its JSON record (`record(of:)`); `path` names it in errors.
    package static func decodeRecord(_ record: [UInt8], path: String) throws(JSONFieldError) -> Item {
        let value: JSONValue
        do {
            value = try JSONParser.parse(record)
        } catch {
            throw JSONFieldError(path: path, reason: "\(error)")
        }
        return try decodeItem(value, path: path)
    }

    package static func writeSnapshotItem(_ item: Item, to snapshot: inout SnapshotWriter) { snapshot.data(record(of: item)) }

    package static func makeSnapshotItemReader() -> (inout SnapshotReader) throws(SnapshotFormatError) -> Item {
        { (snapshot: inout SnapshotReader) throws(SnapshotFormatError) in
            let text = try snapshot.data()
            do {
                return try decodeRecord(Array(text), path: "item")
            } catch {
                throw SnapshotFormatError(offset: 0, reason: "\(error)")
            }
        }
    }

    /// Decodes a JSON array data file with `decodeItem`.
    package static func decodeItems(_ file: DataFileBytes) throws(DataLoadError) -> [Item] {
        try JSONArrayDecoding.decode(file, id: id(of:)) {
            { (value, path) throws(JSONFieldError) in try decodeItem(value, path: path) }
        }
    }
    package static func writeMarker(_ item: Item, in context: inout RowContext<Phrases>, to json: inout JSONWriter) {}
    /// Whether list responses echo the session's selection (collections with a map do).
    static var sharesSelection: Bool { markerSort != nil }
}

extension ListCollection where Scope == NoScope {
    package static func scope(
        for view: View, parameters: ParameterReader, display: DisplayContext, now: Date
    ) throws(ListServiceError) -> ResolvedScope<Scope> {
        ResolvedScope(NoScope())
    }
}

/// A list's scope, when it goes stale, and the scope parameters as applied (for the
/// response's `criteria`, defaults filled in).
package struct ResolvedScope<Scope: Hashable & Sendable>: Sendable {
    package let scope: Scope
    package let validUntil: Date
    package let appliedParameters: [String: String]

    package init(_ scope: Scope, validUntil: Date = .distantFuture, appliedParameters: [String: String] = [:]) {
        self.scope = scope
        self.validUntil = validUntil
        self.appliedParameters = appliedParameters
    }
}

/// The scope of a collection whose views need nothing from the request.
package struct NoScope: Hashable, Sendable {
    package init() {}
}

/// What a collection sorts an item by: a number, or text.
package enum SortValue: Sendable, Hashable {
    case number(Int64)
    case text(String)
}

/// A sort value as it compares: a number, or text compared case- and accent-insensitively
/// first. Ties between equal keys always break by id, ascending.
package enum SortKey: Comparable, Sendable, Hashable {
    case number(Int64)
    case text(folded: String, exact: String)

    package init(_ value: SortValue) {
        switch value {
        case .number(let number): self = .number(number)
        case .text(let text): self = .text(folded: TextFolding.fold(text), exact: text)
        }
    }

    package static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): a < b
        case (.text(let a, let exactA), .text(let b, let exactB)): (a, exactA) < (b, exactB)
        case (.number, .text): true
        case (.text, .number): false
        }
    }

    /// Whether both keys are numbers or both are text.
    func isSameKind(as other: SortKey) -> Bool {
        switch (self, other) {
        case (.number, .number), (.text, .text): true
        default: false
        }
    }

    /// The key as cursor text; `init(cursorText:)` reads it back.
    var cursorText: String {
        switch self {
        case .number(let value): "n\(value)"
        case .text(_, let exact): "t\(exact)"
        }
    }

    init?(cursorText: String) {
        switch cursorText.first {
        case "n":
            guard let value = Int64(cursorText.dropFirst()) else { return nil }
            self = .number(value)
        case "t":
            self.init(.text(String(cursorText.dropFirst())))
        default:
            return nil
        }
    }
}

/// What a row is written with: formatters for the client, the collection's phrases in its
/// language, and the time.
package struct RowContext<Phrases: Sendable> {
    package var formatting: DisplayFormatters.Formatting
    package let phrases: Phrases
    package let display: DisplayContext
    package let now: Date
    /// The client's current calendar day, worked out once per page.
    package let today: Range<Date>
    let timeZone: TimeZone

    init(formatting: DisplayFormatters.Formatting, phrases: Phrases, display: DisplayContext, now: Date) {
        self.formatting = formatting
        self.phrases = phrases
        self.display = display
        self.now = now
        timeZone = DisplayContext.timeZone(named: display.timeZoneIdentifier) ?? TimeZone(identifier: "UTC") ?? .current
        today = CalendarDays.day(containing: now, in: display.timeZoneIdentifier)
    }

    /// Calendar days from today to the day of `date` in the client's zone (negative: past).
    package func calendarDays(until date: Date) -> Int {
        func localDay(_ instant: Date) -> Int {
            Int(((instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))) / 86_400).rounded(.down))
        }
        return localDay(date) - localDay(now)
    }
}
