import Foundation

/// A validated, normalized orders request: what to list, in which order, which page, and
/// how to format it.
public struct OrderCriteria: Sendable, Hashable {
    public let predicate: OrderPredicate
    public let search: String
    public let sort: OrderSortField
    public let direction: SortDirection
    public let limit: Int
    public let start: PageStart
    public let display: DisplayContext
    /// When the list's meaning changes by itself (the month ends), or `distantFuture`.
    public let validUntil: Date

    public static let parameterNames = ["filter", "q", "sort", "order", "limit", "cursor", "offset", "locale", "tz"]
    public static let limitRange = 1...500

    /// Validates `request`; every problem names its parameter.
    public init(_ request: ListRequest, now: Date) throws(ListServiceError) {
        let reader = try ParameterReader(request.parameters, allowed: Self.parameterNames)
        let filter = try reader.choice("filter", default: OrderFilter.all)
        search = try reader.searchText("q")
        sort = try reader.choice("sort", default: filter.defaultSort.field)
        direction = try reader.choice("order", default: filter.defaultSort.direction)
        limit = try reader.integer("limit", in: Self.limitRange, default: 50) ?? 50
        display = try reader.displayContext(acceptLanguage: request.acceptLanguage)
        var month: Range<Date>?
        var validUntil = Date.distantFuture
        if filter == .currentMonth {
            let interval = Self.month(containing: now, in: display.timeZoneIdentifier)
            month = interval
            validUntil = interval.upperBound
        }
        self.validUntil = validUntil
        predicate = OrderPredicate(filter: filter, foldedQuery: TextFolding.fold(search), currentMonth: month)
        let offset = try reader.integer("offset", in: 0...10_000_000, default: nil)
        let cursorText = reader.string("cursor").flatMap { $0.isEmpty ? nil : $0 }  // empty: the first page
        switch (cursorText, offset) {
        case (let text?, nil):
            guard let cursor = PageCursor(encoded: text) else {
                throw .invalidParameter("cursor", "The cursor is not one this server issued; use nextCursor from a previous page.")
            }
            start = .after(cursor)
        case (nil, let offset?): start = .offset(offset)
        case (nil, nil): start = .first
        case (_?, _?): throw .invalidParameter("cursor", "Give either cursor or offset, not both.")
        }
        if case .after(let cursor) = start, cursor.fingerprint != fingerprint {
            throw .invalidParameter("cursor", "The cursor belongs to a list with other filter, q, sort or order.")
        }
    }

    public var filter: OrderFilter { predicate.filter }

    /// Identifies the list (not the page or formatting): cursors carry it.
    public var fingerprint: String {
        let month = predicate.currentMonth.map { "\($0.lowerBound.timeIntervalSince1970)" } ?? ""
        return ETag.hexDigest("\(filter.rawValue)|\(predicate.foldedQuery)|\(sort.rawValue)|\(direction.rawValue)|\(month)".utf8)
    }

    /// The calendar month containing `now` in the named time zone.
    static func month(containing now: Date, in zoneName: String) -> Range<Date> {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = DisplayContext.timeZone(named: zoneName) ?? TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let interval = calendar.dateInterval(of: .month, for: now) else { return now..<now }
        return interval.start..<interval.end
    }
}

/// Where a page starts in its list.
public enum PageStart: Sendable, Hashable {
    case first
    case offset(Int)
    /// Keyset pagination: just after the row the cursor names, wherever it now is.
    case after(PageCursor)
}
