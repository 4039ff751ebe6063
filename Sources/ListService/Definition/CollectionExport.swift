/// How a collection's lists are exported as CSV: which members of a row (display-ready, for a
/// spreadsheet) or of a raw record (ISO dates, plain decimals, for a machine) become columns,
/// in order, and what each column's header says in the client's language. NDJSON exports
/// are the list's rows themselves.
package protocol CollectionExport: CollectionPresentation {
    /// The columns of a spreadsheet export: members of the display row (`writeRow`).
    static var exportColumns: [ExportColumn] { get }
    /// The columns of a raw export (`raw=1`): members `writeRawRow` writes, each headed by its
    /// own name in every language.
    static var rawExportFields: [String] { get }
    /// Writes the members of the item's raw row: stored values, dates in ISO 8601, amounts
    /// as plain decimals (the engine opens and closes the object).
    static func writeRawRow(_ item: Item, to json: inout JSONWriter)
}

/// One column of a CSV export: the row member it holds and its header per language.
package struct ExportColumn: Sendable {
    /// The member of the row (or raw row) the column holds.
    package let field: String
    private let titles: [String: String]

    /// A column whose header is `english`, or the title given for the client's language.
    package init(_ field: String, en english: String, de: String, fr: String, es: String, ja: String) {
        self.field = field
        titles = ["en": english, "de": de, "fr": fr, "es": es, "ja": ja]
    }

    /// The item's id, first in every export.
    package static let id = ExportColumn("id", en: "ID", de: "ID", fr: "ID", es: "ID", ja: "ID")

    /// The column's header for a BCP 47 locale tag (English for a language without its own).
    package func title(for localeTag: String) -> String {
        titles[DisplayContext.language(of: localeTag)] ?? titles["en"] ?? field
    }
}
