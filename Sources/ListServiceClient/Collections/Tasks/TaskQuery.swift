/// The tasks list's criteria.
public struct TaskQuery: ListQuery {
    public typealias Row = TaskRow

    public enum View: String, Sendable, CaseIterable {
        case active, archived, all
    }

    public enum Sort: String, Sendable {
        case priority, dueDate, title
    }

    public enum Grouping: String, Sendable {
        case due, priority
    }

    public var view: View
    public var search: String
    public var sort: Sort?
    public var order: SortDirection?
    public var group: Grouping?
    public var limit: Int?
    public var display: Display

    public init(
        view: View = .active, search: String = "", sort: Sort? = nil, order: SortDirection? = nil, group: Grouping? = nil,
        limit: Int? = nil, display: Display = .device
    ) {
        (self.view, self.search, self.sort, self.order, self.group) = (view, search, sort, order, group)
        (self.limit, self.display) = (limit, display)
    }

    public var path: String { "/tasks" }

    public var parameters: [(name: String, value: String)] {
        [("view", view.rawValue)]
            + listParameters(search: search, sort: sort?.rawValue, order: order, group: group?.rawValue, display: display)
    }
}
