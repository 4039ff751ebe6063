import Foundation

/// Orders count every filter: `all`, `pending`, `completed`, `cancelled`, `highValue` and
/// `currentMonth` (the client's month, in its zone), by the filters' own definitions.
extension Orders {
    package static let countNames = OrderFilter.allCases.map(\.rawValue)

    package static func countScope(of scope: Scope, display: DisplayContext, now: Date) -> (scope: Range<Date>, validUntil: Date) {
        let month = CalendarDays.month(containing: now, in: display.timeZoneIdentifier)
        return (month, month.upperBound)
    }

    /// Every count is a filter's members.
    package static func countedView(_ index: Int, in month: Range<Date>) -> (view: OrderFilter, scope: Scope)? {
        let filter = OrderFilter.allCases[index]
        return (filter, Scope(currentMonth: filter == .currentMonth ? month : nil))
    }
}
