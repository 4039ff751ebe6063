import Foundation

/// An immutable version of all orders with everything a query needs precomputed at load:
/// filter columns, the search index and, per sort field and direction, the full sort order
/// (ties by id). A query is then one scan and one walk, never a sort.
public final class OrderSnapshot: Sendable {
    public let version: UInt64
    public let orders: [Order]
    private let positionByID: [String: Int]
    // Columns for the filter scan: contiguous, so it stays in cache.
    private let statuses: [OrderStatus]
    private let totals: [Money]
    private let dates: [Date]
    private let search: SearchIndex
    private let sortOrders: [SortKey: [Int32]]

    private struct SortKey: Hashable {
        let field: OrderSortField
        let direction: SortDirection
    }

    public init(orders: [Order], version: UInt64) {
        self.version = version
        self.orders = orders
        var positions: [String: Int] = [:]
        positions.reserveCapacity(orders.count)
        for (index, order) in orders.enumerated() { positions[order.id] = index }
        positionByID = positions
        statuses = orders.map(\.status)
        totals = orders.map(\.total)
        dates = orders.map(\.date)
        search = Self.makeSearchIndex(orders)
        sortOrders = Self.makeSortOrders(orders)
    }

    public var count: Int { orders.count }

    public func order(id: String) -> Order? { positionByID[id].map { orders[$0] } }

    /// The indices of the matching orders, sorted by `field` in `direction`, ties by id.
    public func evaluate(_ predicate: OrderPredicate, sort field: OrderSortField, direction: SortDirection) -> [Int32] {
        let sorted = sortOrders[SortKey(field: field, direction: direction)] ?? []
        if predicate.matchesEverything { return sorted }
        var matches = [Bool](repeating: false, count: orders.count)
        for index in matches.indices {
            matches[index] = predicate.filter.matches(
                status: statuses[index], total: totals[index], date: dates[index], currentMonth: predicate.currentMonth)
        }
        search.keepMatches(of: predicate.foldedQuery, in: &matches)
        return sorted.filter { matches[Int($0)] }
    }

    // MARK: keyset cursors

    /// The cursor text of an order's sort value.
    public func cursorValue(of order: Order, sort field: OrderSortField) -> String {
        switch field {
        case .date: String(Self.milliseconds(order.date))
        case .total: String(order.total.cents)
        case .customer: order.customerName
        }
    }

    /// Where the page after `cursor` starts in `result`: the first row that sorts after the
    /// cursor's (value, id), found by binary search, so rows added or removed meanwhile cause
    /// neither duplicates nor gaps. Nil when the cursor's value is not of this sort field.
    public func position(after cursor: PageCursor, in result: [Int32], sort field: OrderSortField, direction: SortDirection) -> Int? {
        guard let key = CursorKey(cursor, field: field) else { return nil }
        // Rows sort by (value in `direction`, id ascending); find the first that sorts after the cursor.
        func sortsAfterCursor(_ order: Order) -> Bool {
            switch key.compare(order) {
            case .orderedSame: order.id > cursor.id
            case .orderedAscending: direction == .desc
            case .orderedDescending: direction == .asc
            }
        }
        var low = 0, high = result.count
        while low < high {
            let middle = (low + high) / 2
            if sortsAfterCursor(orders[Int(result[middle])]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// A cursor's sort value, parsed for comparison with orders.
    private enum CursorKey {
        case date(Int64)
        case total(Int64)
        case customer(folded: String, name: String)

        init?(_ cursor: PageCursor, field: OrderSortField) {
            switch field {
            case .date:
                guard let milliseconds = Int64(cursor.sortValue) else { return nil }
                self = .date(milliseconds)
            case .total:
                guard let cents = Int64(cursor.sortValue) else { return nil }
                self = .total(cents)
            case .customer: self = .customer(folded: TextFolding.fold(cursor.sortValue), name: cursor.sortValue)
            }
        }

        /// How `order`'s sort value compares with this key, ascending.
        func compare(_ order: Order) -> ComparisonResult {
            switch self {
            case .date(let milliseconds): Self.compare(OrderSnapshot.milliseconds(order.date), milliseconds)
            case .total(let cents): Self.compare(order.total.cents, cents)
            case .customer(let folded, let name):
                Self.compare(CustomerSortKey(order.customerName), CustomerSortKey(folded: folded, name: name))
            }
        }

        static func compare<T: Comparable>(_ value: T, _ key: T) -> ComparisonResult {
            value < key ? .orderedAscending : (value == key ? .orderedSame : .orderedDescending)
        }
    }

    /// Dates sort and page at millisecond resolution.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    // MARK: building the indexes

    private static func makeSearchIndex(_ orders: [Order]) -> SearchIndex {
        var index = SearchIndex(fieldCount: 2)
        var foldedNames: [String: String] = [:]  // names repeat; fold each once
        for order in orders {
            let name = foldedNames[order.customerName] ?? {
                let folded = TextFolding.fold(order.customerName)
                foldedNames[order.customerName] = folded
                return folded
            }()
            index.append([name, TextFolding.fold(order.title)])  // the fields of Order.searchableText
        }
        return index
    }

    private static func makeSortOrders(_ orders: [Order]) -> [SortKey: [Int32]] {
        let indices = (0..<Int32(orders.count)).map { $0 }
        // Rank ids and customer names once; every sort then compares integers.
        var idRank = [Int32](repeating: 0, count: orders.count)
        for (rank, index) in indices.sorted(by: { orders[Int($0)].id < orders[Int($1)].id }).enumerated() {
            idRank[Int(index)] = Int32(rank)
        }
        let names = Set(orders.map(\.customerName)).map(CustomerSortKey.init).sorted()
        let nameRank = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1.name, Int64($0)) })
        let keys: [OrderSortField: [Int64]] = [
            .date: orders.map { milliseconds($0.date) },
            .total: orders.map(\.total.cents),
            .customer: orders.map { nameRank[$0.customerName] ?? 0 },
        ]
        var result: [SortKey: [Int32]] = [:]
        for field in OrderSortField.allCases {
            let key = keys[field] ?? []
            for direction in SortDirection.allCases {
                result[SortKey(field: field, direction: direction)] = indices.sorted { a, b in
                    let ka = key[Int(a)], kb = key[Int(b)]
                    if ka != kb { return direction == .asc ? ka < kb : ka > kb }
                    return idRank[Int(a)] < idRank[Int(b)]
                }
            }
        }
        return result
    }
}

/// Customers sort case- and accent-insensitively (Jürgen beside Jurgen), then by exact name.
struct CustomerSortKey: Comparable {
    let folded: String
    let name: String

    init(_ name: String) { self.init(folded: TextFolding.fold(name), name: name) }
    init(folded: String, name: String) {
        self.folded = folded
        self.name = name
    }

    static func < (lhs: CustomerSortKey, rhs: CustomerSortKey) -> Bool {
        (lhs.folded, lhs.name) < (rhs.folded, rhs.name)
    }
}
