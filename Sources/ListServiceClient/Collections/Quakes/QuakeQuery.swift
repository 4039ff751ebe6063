/// The earthquakes of one day in the reader's zone, as a list.
public struct QuakeQuery: ListQuery {
    public typealias Row = QuakeRow

    public enum Sort: String, Sendable {
        case time, magnitude
    }

    public enum Grouping: String, Sendable {
        case hour, magnitude
    }

    /// `YYYY-MM-DD`; nil for today.
    public var date: String?
    public var search: String
    public var sort: Sort?
    public var order: SortDirection?
    public var group: Grouping?
    public var limit: Int?
    public var display: Display

    public init(
        date: String? = nil, search: String = "", sort: Sort? = nil, order: SortDirection? = nil, group: Grouping? = nil,
        limit: Int? = nil, display: Display = .device
    ) {
        (self.date, self.search, self.sort, self.order, self.group) = (date, search, sort, order, group)
        (self.limit, self.display) = (limit, display)
    }

    public var path: String { "/quakes" }

    public var parameters: [(name: String, value: String)] {
        parameter("date", date)
            + listParameters(search: search, sort: sort?.rawValue, order: order, group: group?.rawValue, display: display)
    }
}

/// The same earthquakes (one predicate) as map markers, largest first.
public struct QuakeMapQuery: ListQuery {
    public typealias Row = QuakeMarker

    public var date: String?
    public var search: String
    public var display: Display
    /// Markers come all at once.
    public var limit: Int? { nil }

    public init(date: String? = nil, search: String = "", display: Display = .device) {
        (self.date, self.search, self.display) = (date, search, display)
    }

    public var path: String { "/quakes/map" }

    public static var isPaged: Bool { false }

    public var parameters: [(name: String, value: String)] {
        parameter("date", date) + listParameters(search: search, display: display)
    }
}
