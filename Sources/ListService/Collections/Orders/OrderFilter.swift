import Foundation

/// The named order lists a client can ask for.
package enum OrderFilter: String, ListChoice {
    case all, pending, completed, cancelled, highValue, currentMonth

    /// The one definition of each filter, used wherever orders are filtered.
    /// `currentMonth` is the client's calendar month (in its time zone) and is only read
    /// by that filter.
    package func matches(status: OrderStatus, totalInDollars: Money, date: Date, currentMonth: Range<Date>?) -> Bool {
        switch self {
        case .all: true
        case .pending: status == .pending
        case .completed: status == .completed
        case .cancelled: status == .cancelled
        case .highValue: Order.isHighValue(totalInDollars: totalInDollars)
        case .currentMonth: status != .cancelled && totalInDollars.cents > 0 && currentMonth?.contains(date) == true
        }
    }
}

/// The fields an order list can be sorted by.
package enum OrderSortField: String, ListChoice {
    case date, total, customer
}
