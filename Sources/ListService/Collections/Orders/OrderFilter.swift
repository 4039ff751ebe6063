import Foundation

/// The named order lists a client can ask for.
package enum OrderFilter: String, ListChoice {
    case all, pending, completed, cancelled, highValue, currentMonth

    /// The one definition of each filter, used wherever orders are filtered.
    /// `currentMonth` is the client's calendar month (in its time zone) and is only read
    /// by that filter.
    package func matches(_ order: Orders.FilterFields, currentMonth: Range<Date>?) -> Bool {
        switch self {
        case .all: true
        case .pending: order.status == .pending
        case .completed: order.status == .completed
        case .cancelled: order.status == .cancelled
        case .highValue: order.isHighValue
        case .currentMonth: order.status != .cancelled && order.hasValue && currentMonth?.contains(order.date) == true
        }
    }
}

/// The fields an order list can be sorted by. `status`: pending, completed, cancelled, then
/// the newest first within each.
package enum OrderSortField: String, ListChoice {
    case date, total, customer, status
}

/// How an order list falls into sections: by the client's calendar day or month (sorted by
/// date), or by status (sorted by status).
package enum OrderGrouping: String, ListChoice {
    case day, month, status
}
