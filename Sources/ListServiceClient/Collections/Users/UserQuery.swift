/// The people list's criteria.
public struct UserQuery: ListQuery {
    public typealias Row = UserRow

    public enum Sort: String, Sendable {
        case name, taps
    }

    public enum Grouping: String, Sendable {
        case initial
    }

    public var search: String
    public var sort: Sort?
    public var order: SortDirection?
    public var group: Grouping?
    public var limit: Int?
    public var display: Display

    public init(
        search: String = "", sort: Sort? = nil, order: SortDirection? = nil, group: Grouping? = nil, limit: Int? = nil,
        display: Display = .device
    ) {
        (self.search, self.sort, self.order, self.group, self.limit, self.display) = (search, sort, order, group, limit, display)
    }

    public var path: String { "/users" }

    public var parameters: [(name: String, value: String)] {
        listParameters(search: search, sort: sort?.rawValue, order: order, group: group?.rawValue, display: display)
    }
}
