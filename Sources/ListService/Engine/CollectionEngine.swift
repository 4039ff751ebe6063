import Foundation
import Synchronization

/// Computes a collection's lists and rows and shares them: one evaluation serves every
/// session with the same criteria, one page every session on the same page. Bounded LRU
/// caches keep memory flat whatever clients ask.
public final class CollectionEngine<C: ListCollection>: Sendable {
    public let store: CollectionStore<C>
    public let metrics: ServiceMetrics
    private let formatters: FormatterCache
    private let clock: @Sendable () -> Date
    private let results: Mutex<LRUCache<ResultKey, SortedResult>>
    private let pages: Mutex<LRUCache<PageKey, ListPage>>
    /// False when the shared caches are switched off (cold benchmarks): every miss computes.
    private let isSharing: Bool

    /// Identifies a sorted list of matches.
    private struct ResultKey: Hashable {
        let view: C.View
        let scope: C.Scope
        let foldedSearch: String
        let sort: C.SortField
        let direction: SortDirection
        let version: UInt64
    }

    /// Identifies one encoded response body.
    private enum PageKey: Hashable {
        case list(ListCriteria<C>, version: UInt64)
        case row(id: String, DisplayContext, version: UInt64)
    }

    /// A computed list; a final class so cache hits share it instead of copying indices.
    private final class SortedResult: Sendable {
        let indices: [Int32]
        init(_ indices: [Int32]) { self.indices = indices }
    }

    public init(
        store: CollectionStore<C>, metrics: ServiceMetrics, formatters: FormatterCache, pageCapacity: Int = 2048,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.metrics = metrics
        self.formatters = formatters
        self.clock = clock
        // Sorted results are up to 4 bytes per item; a few dozen cover the lists in use.
        results = Mutex(LRUCache(capacity: max(1, pageCapacity / 32)))
        pages = Mutex(LRUCache(capacity: max(1, pageCapacity)))
        isSharing = pageCapacity > 0
    }

    public var now: Date { clock() }

    /// The page for `criteria`, from the shared cache or computed now.
    public func page(for criteria: ListCriteria<C>) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let snapshot = store.snapshot
        let now = self.now
        let key = PageKey.list(criteria, version: snapshot.version)
        if isSharing, let cached = pages.withLock({ $0[key] }), cached.isFresh(dataVersion: snapshot.version, now: now) {
            return (cached, .sharedHit)
        }
        let result = sortedResult(for: criteria, in: snapshot)
        let page = try buildPage(criteria, result: result.indices, snapshot: snapshot, now: now)
        if isSharing { pages.withLock { $0[key] = page } }
        return (page, .miss)
    }

    /// The map for `criteria`: every matching item's marker, in the collection's marker order.
    public func map(for criteria: ListCriteria<C>) -> (ListPage, CacheOutcome) {
        let snapshot = store.snapshot
        let key = PageKey.list(criteria, version: snapshot.version)
        if isSharing, let cached = pages.withLock({ $0[key] }), cached.isFresh(dataVersion: snapshot.version, now: now) {
            return (cached, .sharedHit)
        }
        let result = sortedResult(for: criteria, in: snapshot).indices
        var json = JSONWriter(reservingCapacity: 128 * result.count + 256)
        json.beginObject()
        json.key("items")
        json.beginArray()
        for index in result { C.writeMarker(snapshot.items[Int(index)], to: &json) }
        json.endArray()
        json.key("total")
        json.int(result.count)
        json.key("criteria")
        writeCriteria(criteria, to: &json)
        json.endObject()
        metrics.increment(.pagesBuilt)
        let page = ListPage(body: json.bytes, dataVersion: snapshot.version, validUntil: criteria.validUntil)
        if isSharing { pages.withLock { $0[key] = page } }
        return (page, .miss)
    }

    /// One item's row for `display`, or `notFound`.
    public func row(id: String, display: DisplayContext) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let snapshot = store.snapshot
        let now = self.now
        let key = PageKey.row(id: id, display, version: snapshot.version)
        if isSharing, let cached = pages.withLock({ $0[key] }), cached.isFresh(dataVersion: snapshot.version, now: now) {
            return (cached, .sharedHit)
        }
        guard let item = snapshot.item(id: id) else { throw .notFound(C.itemName, id: id) }
        let (body, expiry) = writeRows(display: display, now: now) { context, json in
            C.writeRow(item, in: &context, to: &json)
            return C.rowExpiry(of: item, in: context)
        }
        metrics.increment(.rowsFormatted)
        let page = ListPage(body: body, dataVersion: snapshot.version, validUntil: expiry ?? .distantFuture)
        if isSharing { pages.withLock { $0[key] = page } }
        return (page, .miss)
    }

    private func sortedResult(for criteria: ListCriteria<C>, in snapshot: CollectionSnapshot<C>) -> SortedResult {
        let key = ResultKey(
            view: criteria.view, scope: criteria.scope, foldedSearch: criteria.foldedSearch, sort: criteria.sort,
            direction: criteria.direction, version: snapshot.version)
        if isSharing, let cached = results.withLock({ $0[key] }) { return cached }
        let result = SortedResult(
            snapshot.evaluate(
                view: criteria.view, scope: criteria.scope, foldedQuery: criteria.foldedSearch, sort: criteria.sort,
                direction: criteria.direction))
        metrics.increment(.recomputations)
        if isSharing { results.withLock { $0[key] = result } }
        return result
    }

    /// Runs `body` with a row context for `display`, collecting what it writes.
    private func writeRows(
        display: DisplayContext, now: Date, _ body: (inout RowContext, inout JSONWriter) -> Date?
    ) -> ([UInt8], Date?) {
        let formatters = formatters.formatters(for: display)
        return formatters.withFormatters { formatting in
            var context = RowContext(formatting: formatting, labels: formatters.labels, display: display, now: now)
            var json = JSONWriter(reservingCapacity: 4096)
            let expiry = body(&context, &json)
            formatting = context.formatting
            return (json.bytes, expiry)
        }
    }

    private func buildPage(
        _ criteria: ListCriteria<C>, result: [Int32], snapshot: CollectionSnapshot<C>, now: Date
    ) throws(ListServiceError) -> ListPage {
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
        let items = snapshot.items
        let (rows, expiry) = writeRows(display: criteria.display, now: now) { context, json in
            var expiry: Date?
            json.beginArray()
            for position in start..<end {
                let item = items[Int(result[position])]
                C.writeRow(item, in: &context, to: &json)
                if let rowExpiry = C.rowExpiry(of: item, in: context) { expiry = min(expiry ?? rowExpiry, rowExpiry) }
            }
            json.endArray()
            return expiry
        }
        metrics.increment(.rowsFormatted, by: end - start)
        metrics.increment(.pagesBuilt)
        var nextCursor: String?
        if end < result.count, end > start {
            let last = items[Int(result[end - 1])]
            nextCursor = PageCursor(
                fingerprint: criteria.fingerprint, sortValue: C.sortKey(of: last, by: criteria.sort).cursorText, id: C.id(of: last)
            ).encoded
        }
        var json = JSONWriter(reservingCapacity: rows.count + 256)
        json.beginObject()
        json.key("items")
        json.raw(rows)
        json.key("total")
        json.int(result.count)
        json.key("nextCursor")
        json.optionalString(nextCursor)
        json.key("criteria")
        writeCriteria(criteria, to: &json)
        json.endObject()
        return ListPage(body: json.bytes, dataVersion: snapshot.version, validUntil: min(criteria.validUntil, expiry ?? .distantFuture))
    }

    /// The criteria as applied, defaults filled in.
    private func writeCriteria(_ criteria: ListCriteria<C>, to json: inout JSONWriter) {
        json.beginObject()
        if let viewParameter = C.viewParameter {
            json.key(viewParameter)
            json.string(criteria.view.rawValue)
        }
        for name in C.scopeParameters {
            json.key(name)
            json.optionalString(criteria.scopeEcho[name])
        }
        json.key("q")
        json.string(criteria.search)
        if criteria.purpose == .list {
            json.key("sort")
            json.string(criteria.sort.rawValue)
            json.key("order")
            json.string(criteria.direction.rawValue)
            json.key("limit")
            json.int(criteria.limit)
        }
        json.key("locale")
        json.string(criteria.display.localeTag)
        json.key("tz")
        json.string(criteria.display.timeZoneIdentifier)
        json.endObject()
    }
}
