import Foundation

/// Orders fall into the client's calendar days (`day`) or months (`month`), both sorted by
/// date, or into statuses (`status`, sorted by status); each section's summary is its orders'
/// total in US dollars by the fixed rates ("≈ $12,345.67").
extension Orders {
    package typealias Grouping = OrderGrouping

    package static func sortField(for grouping: OrderGrouping) -> OrderSortField {
        grouping == .status ? .status : .date
    }

    package static func section(of order: Order, grouping: OrderGrouping, in context: SectionContext) -> Int64 {
        switch grouping {
        case .day: return context.timeZone.localDay(of: order.date)
        case .month:
            let date = LocalDate(daysSince1970: context.timeZone.localDay(of: order.date))
            return Int64(date.year * 12 + date.month - 1)
        case .status: return Int64(order.status.rank)
        }
    }

    package static func sectionKey(_ section: Int64, grouping: OrderGrouping, in context: SectionContext) -> String {
        switch grouping {
        case .day: return LocalDate(daysSince1970: section).isoText
        case .month:
            let (year, month) = section.quotientAndRemainder(dividingBy: 12)
            return "\(String(zeroPadded: Int(year), width: 4))-\(String(zeroPadded: Int(month) + 1, width: 2))"
        case .status: return status(ranked: section).rawValue
        }
    }

    package static func heading(
        of section: Int64, grouping: OrderGrouping, in context: SectionContext, writing row: inout RowContext<OrderPhrases>
    ) -> (title: String, subtitle: String?, validUntil: Date?) {
        switch grouping {
        case .day: return context.dayHeading(section, formatting: &row.formatting)
        case .month:
            let (year, month) = section.quotientAndRemainder(dividingBy: 12)
            let fifteenth = ISO8601.daysFromCivil(year: Int(year), month: Int(month) + 1, day: 15)
            return (row.formatting.date(context.noon(ofLocalDay: Int64(fifteenth)), template: "MMMMy"), nil, nil)
        case .status: return (row.phrases.status(status(ranked: section)), nil, nil)
        }
    }

    /// Every grouping sums its orders' totals in US dollars.
    package static func summarizes(_ grouping: OrderGrouping) -> Bool { true }

    package static func summaryValue(of order: UnsafePointer<Order>, grouping: OrderGrouping, in context: SectionContext) -> Int64 {
        CurrencyRates.inDollars(order.pointee.total, currency: order.pointee.currency).cents
    }

    package static func summary(of total: Int64, grouping: OrderGrouping, in context: inout RowContext<OrderPhrases>) -> String? {
        "≈ " + context.formatting.money(Money(cents: total), currency: .usDollar)
    }

    private static func status(ranked rank: Int64) -> OrderStatus {
        OrderStatus.allCases[Int(min(max(rank, 0), Int64(OrderStatus.allCases.count - 1)))]
    }
}
