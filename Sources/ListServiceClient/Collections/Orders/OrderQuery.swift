/// The orders list's criteria: `OrderQuery(filter: .pending, search: "john")`.
public struct OrderQuery: ListQuery {
    public typealias Row = OrderRow

    public enum Filter: String, Sendable, CaseIterable {
        case all, pending, completed, cancelled, highValue, currentMonth
    }

    public enum Sort: String, Sendable {
        case date, total, customer, status
    }

    public enum Grouping: String, Sendable {
        case day, month, status
    }

    public var filter: Filter
    public var search: String
    public var sort: Sort?
    public var order: SortDirection?
    public var group: Grouping?
    public var limit: Int?
    public var display: Display

    public init(
        filter: Filter = .all, search: String = "", sort: Sort? = nil, order: SortDirection? = nil, group: Grouping? = nil,
        limit: Int? = nil, display: Display = .device
    ) {
        (self.filter, self.search, self.sort, self.order, self.group) = (filter, search, sort, order, group)
        (self.limit, self.display) = (limit, display)
    }

    public var path: String { "/orders" }

    public var parameters: [(name: String, value: String)] {
        [("filter", filter.rawValue)]
            + listParameters(search: search, sort: sort?.rawValue, order: order, group: group?.rawValue, display: display)
    }
}
