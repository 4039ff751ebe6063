import Foundation

/// The named order lists a client can ask for.
public enum OrderFilter: String, Sendable, CaseIterable, Hashable {
    case all, pending, completed, cancelled, highValue, currentMonth

    /// The one definition of each filter, used wherever orders are filtered.
    /// `currentMonth` is the client's calendar month (in its time zone) and is only read
    /// by that filter.
    public func matches(status: OrderStatus, total: Money, date: Date, currentMonth: Range<Date>?) -> Bool {
        switch self {
        case .all: true
        case .pending: status == .pending
        case .completed: status == .completed
        case .cancelled: status == .cancelled
        case .highValue: total > Money(cents: 100_000)
        case .currentMonth: status != .cancelled && total.cents > 0 && currentMonth?.contains(date) == true
        }
    }

    /// High-value lists are about money; every other list is about recency.
    public var defaultSort: (field: OrderSortField, direction: SortDirection) {
        self == .highValue ? (.total, .desc) : (.date, .desc)
    }
}

/// The fields an order list can be sorted by.
public enum OrderSortField: String, Sendable, CaseIterable, Hashable {
    case date, total, customer
}

/// Whether an order belongs to a list: its filter plus the search text.
public struct OrderPredicate: Sendable, Hashable {
    public let filter: OrderFilter
    /// Folded search text (`TextFolding`); empty matches everything.
    public let foldedQuery: String
    public let currentMonth: Range<Date>?

    public func matches(_ order: Order) -> Bool {
        filter.matches(status: order.status, total: order.total, date: order.date, currentMonth: currentMonth)
            && (foldedQuery.isEmpty || order.searchableText.contains { $0.contains(foldedQuery) })
    }

    /// True when every order matches, so the presorted order can be used as is.
    var matchesEverything: Bool { filter == .all && foldedQuery.isEmpty }
}

extension Order {
    /// What `q` searches, folded: the customer name and the title, each on its own.
    public var searchableText: [String] { [TextFolding.fold(customerName), TextFolding.fold(title)] }
}
