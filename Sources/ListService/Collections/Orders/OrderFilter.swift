import Foundation

/// The named order lists a client can ask for.
package enum OrderFilter: String, ListChoice {
    case all, pending, completed, cancelled, highValue, currentMonth

    /// The one definition of each filter, used wherever orders are filtered.
    /// `currentMonth` is the client's calendar month (in its time zone) and is only read
    /// by that filter.
    /// `isHighValue` is `Order.isHighValue`; `hasValue`, whether the total is more than zero.
    package func matches(status: OrderStatus, isHighValue: Bool, hasValue: Bool, date: Date, currentMonth: Range<Date>?) -> Bool {
        switch self {
        case .all: true
        case .pending: status == .pending
        case .completed: status == .completed
        case .cancelled: status == .cancelled
        case .highValue: isHighValue
        case .currentMonth: status != .cancelled && hasValue && currentMonth?.contains(date) == true
        }
    }
}

/// The fields an order list can be sorted by.
package enum OrderSortField: String, ListChoice {
    case date, total, customer
}
