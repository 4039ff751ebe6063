import Foundation

/// What one list asks for: its path, its parameters, and the type of its rows. Each
/// collection's query (`OrderQuery`, `TaskQuery`, …) names its criteria as typed values;
/// locale and time zone default to the device's.
public protocol ListQuery: Sendable {
    associatedtype Row: ListRow
    /// The list's path, `/orders`; its live twin is this path with `/live` appended.
    var path: String { get }
    /// Its parameters, those left at the service's default omitted.
    var parameters: [(name: String, value: String)] { get }
    /// Rows per page (and the first live window), nil for the service's default.
    var limit: Int? { get }
    /// Whether the list comes in pages (`limit`, `cursor`, `offset`); a map holds every marker at once.
    static var isPaged: Bool { get }
}

/// A row of a list: display-ready, compared by value to tell whether it changed.
public protocol ListRow: Codable, Sendable, Identifiable, Equatable where ID == String {}

/// The direction of a sort.
public enum SortDirection: String, Sendable, Codable {
    case ascending = "asc"
    case descending = "desc"
}

/// How a list formats for its reader: a BCP 47 locale and an IANA time zone.
public struct Display: Sendable, Equatable {
    public var locale: String
    public var timeZone: String

    public init(locale: String, timeZone: String) {
        self.locale = locale
        self.timeZone = timeZone
    }

    /// The device's language and region, and its time zone.
    public static var device: Display {
        let current = Locale.current
        var tag = current.language.languageCode?.identifier ?? "en"
        if let region = current.region?.identifier, region.count == 2 { tag += "-\(region)" }
        return Display(locale: tag, timeZone: TimeZone.current.identifier)
    }

    var parameters: [(name: String, value: String)] { [("locale", locale), ("tz", timeZone)] }

    /// The query string of a detail or a write: the display alone.
    var query: String { "?locale=\(locale.percentEncoded)&tz=\(timeZone.percentEncoded)" }
}

extension ListQuery {
    public static var isPaged: Bool { true }

    /// The query string of `parameters` and `extra`, percent-encoded, with its `?`.
    func queryString(_ extra: [(name: String, value: String)] = []) -> String {
        encodedQuery(parameters + extra)
    }
}

/// The query string of `pairs`, percent-encoded, with its `?` (empty for none).
func encodedQuery(_ pairs: [(name: String, value: String)]) -> String {
    guard !pairs.isEmpty else { return "" }
    return "?" + pairs.map { "\($0.name.percentEncoded)=\($0.value.percentEncoded)" }.joined(separator: "&")
}

/// Appends a parameter when it has a value.
func parameter(_ name: String, _ value: String?) -> [(name: String, value: String)] {
    value.map { [(name, $0)] } ?? []
}

/// What every list's query says the same way: `q` when searching; `sort`, `order` and `group`
/// when chosen (the service's defaults otherwise); the display.
func listParameters(
    search: String, sort: String? = nil, order: SortDirection? = nil, group: String? = nil, display: Display
) -> [(name: String, value: String)] {
    parameter("q", search.isEmpty ? nil : search) + parameter("sort", sort) + parameter("order", order?.rawValue)
        + parameter("group", group) + display.parameters
}
