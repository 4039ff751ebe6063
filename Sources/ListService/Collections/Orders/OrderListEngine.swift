import Foundation
import Synchronization

/// Computes order lists and rows and shares them: one evaluation serves every session with
/// the same criteria, one page every session on the same page. Bounded LRU caches keep
/// memory flat whatever clients ask.
public final class OrderListEngine: Sendable {
    public let store: OrderStore
    public let metrics: ServiceMetrics
    private let formatters: FormatterCache
    private let clock: @Sendable () -> Date
    private let results: Mutex<LRUCache<ResultKey, SortedResult>>
    private let pages: Mutex<LRUCache<PageKey, ListPage>>
    /// False when the shared caches are switched off (cold benchmarks): every miss computes.
    private let isSharing: Bool

    /// Identifies a sorted list of matches.
    private struct ResultKey: Hashable {
        let predicate: OrderPredicate
        let sort: OrderSortField
        let direction: SortDirection
        let version: UInt64
    }

    /// Identifies one encoded response body.
    private enum PageKey: Hashable {
        case list(OrderCriteria, version: UInt64)
        case row(id: String, DisplayContext, version: UInt64)
    }

    /// A computed list; a final class so cache hits share it instead of copying indices.
    private final class SortedResult: Sendable {
        let indices: [Int32]
        init(_ indices: [Int32]) { self.indices = indices }
    }

    public init(
        store: OrderStore, metrics: ServiceMetrics, formatters: FormatterCache = FormatterCache(),
        pageCapacity: Int = 2048, clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.metrics = metrics
        self.formatters = formatters
        self.clock = clock
        // Sorted results are up to 4 bytes per order; a few dozen cover the lists in use.
        results = Mutex(LRUCache(capacity: max(1, pageCapacity / 32)))
        pages = Mutex(LRUCache(capacity: pageCapacity))
        isSharing = pageCapacity > 0
    }

    public var now: Date { clock() }

    /// The page for `criteria`, from the shared cache or computed now.
    public func page(for criteria: OrderCriteria) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let snapshot = store.snapshot
        let key = PageKey.list(criteria, version: snapshot.version)
        if isSharing, let cached = pages.withLock({ $0[key] }), cached.isFresh(dataVersion: snapshot.version, now: now) {
            return (cached, .sharedHit)
        }
        let result = sortedResult(for: criteria, in: snapshot)
        let page = try buildPage(criteria, result: result.indices, snapshot: snapshot)
        if isSharing { pages.withLock { $0[key] = page } }
        return (page, .miss)
    }

    /// One order's row for `display`, or `notFound`.
    public func row(id: String, display: DisplayContext) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let snapshot = store.snapshot
        let key = PageKey.row(id: id, display, version: snapshot.version)
        if isSharing, let cached = pages.withLock({ $0[key] }) { return (cached, .sharedHit) }
        guard let order = snapshot.order(id: id) else { throw .notFound("order", id: id) }
        let formatters = formatters.formatters(for: display)
        let body = formatters.withFormatters { formatting in
            var json = JSONWriter()
            OrderRow.write(order, formatting: &formatting, labels: formatters.labels, to: &json)
            return json.bytes
        }
        metrics.increment(.rowsFormatted)
        let page = ListPage(body: body, dataVersion: snapshot.version)
        if isSharing { pages.withLock { $0[key] = page } }
        return (page, .miss)
    }

    private func sortedResult(for criteria: OrderCriteria, in snapshot: OrderSnapshot) -> SortedResult {
        let key = ResultKey(predicate: criteria.predicate, sort: criteria.sort, direction: criteria.direction, version: snapshot.version)
        if isSharing, let cached = results.withLock({ $0[key] }) { return cached }
        let result = SortedResult(snapshot.evaluate(criteria.predicate, sort: criteria.sort, direction: criteria.direction))
        metrics.increment(.recomputations)
        if isSharing { results.withLock { $0[key] = result } }
        return result
    }

    private func buildPage(_ criteria: OrderCriteria, result: [Int32], snapshot: OrderSnapshot) throws(ListServiceError) -> ListPage {
        let start: Int
        switch criteria.start {
        case .first: start = 0
        case .offset(let offset): start = min(offset, result.count)
        case .after(let cursor):
            guard let position = snapshot.position(after: cursor, in: result, sort: criteria.sort, direction: criteria.direction) else {
                throw .invalidParameter("cursor", "The cursor does not fit this list's sort order.")
            }
            start = position
        }
        let end = min(result.count, start + criteria.limit)
        let formatters = formatters.formatters(for: criteria.display)
        let labels = formatters.labels
        let orders = snapshot.orders
        let items = formatters.withFormatters { formatting in
            var json = JSONWriter(reservingCapacity: 256 * (end - start) + 64)
            json.beginArray()
            for position in start..<end {
                OrderRow.write(orders[Int(result[position])], formatting: &formatting, labels: labels, to: &json)
            }
            json.endArray()
            return json.bytes
        }
        metrics.increment(.rowsFormatted, by: end - start)
        metrics.increment(.pagesBuilt)
        var nextCursor: String?
        if end < result.count, end > start {
            let last = orders[Int(result[end - 1])]
            nextCursor = PageCursor(
                fingerprint: criteria.fingerprint, sortValue: snapshot.cursorValue(of: last, sort: criteria.sort), id: last.id
            ).encoded
        }
        var json = JSONWriter(reservingCapacity: items.count + 256)
        json.beginObject()
        json.key("items")
        json.raw(items)
        json.key("total")
        json.int(result.count)
        json.key("nextCursor")
        json.optionalString(nextCursor)
        json.key("criteria")
        json.beginObject()
        json.key("filter")
        json.string(criteria.filter.rawValue)
        json.key("q")
        json.string(criteria.search)
        json.key("sort")
        json.string(criteria.sort.rawValue)
        json.key("order")
        json.string(criteria.direction.rawValue)
        json.key("limit")
        json.int(criteria.limit)
        json.key("locale")
        json.string(criteria.display.localeTag)
        json.key("tz")
        json.string(criteria.display.timeZoneIdentifier)
        json.endObject()
        json.endObject()
        return ListPage(body: json.bytes, dataVersion: snapshot.version, validUntil: criteria.validUntil)
    }
}
