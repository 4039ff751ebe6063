import Foundation

/// Tasks count their views (`active`, `archived`, `all`) and two more chips in the client's
/// zone: `overdue` (open and past due, as rows say) and `dueToday` (open and due today).
extension Tasks {
    package static let countNames = View.allCases.map(\.rawValue) + ["overdue", "dueToday"]

    package static func countScope(of scope: NoScope, display: DisplayContext, now: Date) -> (scope: Range<Date>, validUntil: Date) {
        let today = CalendarDays.day(containing: now, in: display.timeZoneIdentifier)
        return (today, today.upperBound)
    }

    package static func countBits(of fields: FilterFields, in today: Range<Date>, at: Date) -> UInt32 {
        let views = View.allCases.enumerated().reduce(UInt32(0)) {
            $0 | bit($1.offset, matches(fields, view: $1.element, scope: NoScope()))
        }
        let isOpen = fields.isActive && !fields.isArchived
        return views | bit(View.allCases.count, isOpen && fields.dueDate < at)
            | bit(View.allCases.count + 1, isOpen && today.contains(fields.dueDate))
    }

    /// An open task not yet due becomes overdue just after its due time.
    package static func countBitsExpiry(of fields: FilterFields, in today: Range<Date>, at: Date) -> Date? {
        fields.isActive && !fields.isArchived && fields.dueDate >= at ? fields.dueDate.addingTimeInterval(0.001) : nil
    }
}
