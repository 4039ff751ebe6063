import Foundation

/// Tasks count their views (`active`, `archived`, `all`) and two more chips in the client's
/// zone: `overdue` (open and past due, as rows say) and `dueToday` (open and due today).
extension Tasks {
    package static let countNames = View.allCases.map(\.rawValue) + ["overdue", "dueToday"]

    package static func countScope(of scope: NoScope, display: DisplayContext, now: Date) -> (scope: Range<Date>, validUntil: Date) {
        let today = CalendarDays.day(containing: now, in: display.timeZoneIdentifier)
        return (today, today.upperBound)
    }

    /// The first counts are the views'.
    package static func countedView(_ index: Int, in today: Range<Date>) -> (view: View, scope: NoScope)? {
        index < View.allCases.count ? (View.allCases[index], NoScope()) : nil
    }

    package static func countBits(of fields: FilterFields, in today: Range<Date>, at: Date) -> UInt32 {
        bit(View.allCases.count, fields.isOpen && fields.dueDate < at)
            | bit(View.allCases.count + 1, fields.isOpen && today.contains(fields.dueDate))
    }

    /// An open task not yet due becomes overdue just after its due time.
    package static func countBitsExpiry(of fields: FilterFields, in today: Range<Date>, at: Date) -> Date? {
        fields.isOpen && fields.dueDate >= at ? fields.dueDate.addingTimeInterval(0.001) : nil
    }
}
