import Foundation
import Basics

/// Computes a collection's lists and rows, shares them between sessions, and keeps them
/// current as items change: a change patches each cached list that holds the item in place
/// (remove, insert at its sorted position) and leaves every other list, page and ETag alone.
/// Bounded LRU caches keep memory flat whatever clients ask.
package final class CollectionEngine<C: ListCollection>: Sendable {
    package let metrics: ServiceMetrics
    let current: Locked<CollectionState<C>>
    let formatters: FormatterCache
    let clock: @Sendable () -> Date
    let results: Locked<LRUCache<ResultKey, SortedResult>>
    let pages: Locked<LRUCache<PageKey, ListPage>>
    /// Lists' counts by search, access and count scope (`CollectionEngine+Counts`), kept
    /// whatever `pageCapacity` says (each is a few numbers; each write updates each).
    let countsCache: Locked<LRUCache<CountsKey, ListCounts>>
    /// Grouped lists' sections by list, grouping and display (`CollectionEngine+Sections`),
    /// kept whatever `pageCapacity` says: each holds until the items change or its time is up.
    let sectionsCache = Locked(LRUCache<SectionsKey, ListSections>(capacity: 64, maxCost: 16 * 1024 * 1024))
    /// Count scopes resolved lately (a calendar month in a zone costs a calendar to find).
    let countScopes = Locked<[CountScopeKey: ResolvedCountScope]>([:])
    /// False when the shared caches are switched off (cold benchmarks): every miss computes.
    let isSharing: Bool
    /// The collection's watched lists, told of every change after it is applied.
    package let live: LiveLists<C>

    /// Identifies a list: which items, in which order.
    typealias ResultKey = ListDefinition<C>

    /// Identifies one encoded response body.
    enum PageKey: Hashable {
        case list(ListCriteria<C>, revision: UInt64)
        case row(id: String, DisplayContext, AccessScope, revision: UInt32)
    }

    /// A computed list: item slots in order, the state version they reflect, and whether they
    /// are still the list's contents.
    final class SortedResult: Sendable {
        let slots: SlotOrder
        let version: UInt64
        let token: CacheValidity

        init(_ slots: SlotOrder, version: UInt64) {
            self.slots = slots
            self.version = version
            token = CacheValidity()
        }

        /// The same list, unchanged by a change: its token (and so its pages) carries over.
        init(sharing result: SortedResult, version: UInt64) {
            slots = result.slots
            self.version = version
            token = result.token
        }
    }

    /// `pageCapacity` bounds the shared pages in number, `cacheBytes` the shared pages and
    /// sorted results together in bytes (three quarters for pages, a quarter for results).
    package init(
        state: CollectionState<C>, metrics: ServiceMetrics, formatters: FormatterCache, pageCapacity: Int = 2048,
        cacheBytes: Int = 64 * 1024 * 1024, live hub: LiveHub = .detached, clock: @escaping @Sendable () -> Date = Date.init
    ) {
        current = Locked(state)
        self.metrics = metrics
        self.formatters = formatters
        self.clock = clock
        // Sorted results are up to 4 bytes per item; a few dozen cover the lists in use.
        results = Locked(LRUCache(capacity: max(1, pageCapacity / 32), maxCost: cacheBytes / 4))
        pages = Locked(LRUCache(capacity: max(1, pageCapacity), maxCost: cacheBytes / 4 * 3))
        countsCache = Locked(LRUCache(capacity: Self.countsCapacity))
        isSharing = pageCapacity > 0
        live = LiveLists(hub: hub)
        live.attach(to: self)
    }

    package var now: Date { clock() }

    /// The bytes the shared caches hold now (pages, and sorted results at 4 bytes a slot).
    package var sharedBytes: Int { pages.withLock { $0.totalCost } + results.withLock { $0.totalCost } }
    package var state: CollectionState<C> { current.withLock { $0 } }

    /// The page for `criteria`, from the shared cache or computed now, with the compressed body
    /// `compression` asks for.
    package func page(
        for criteria: ListCriteria<C>, compression: PageCompression? = nil
    ) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let (result, _) = sortedResult(for: criteria)
        let key = PageKey.list(criteria, revision: result.token.revision)
        let now = self.now
        // A page whose counts changed is stale by their token: counts are read on a miss only.
        if let cached = sharedPage(key, now: now, compression: compression) { return (cached, .sharedHit) }
        let counts = ServerTimings.measure("counts") { self.counts(for: criteria) }
        let page = try ServerTimings.measure("format") { () throws(ListServiceError) in
            try buildPage(criteria, result: result, counts: counts, now: now)
        }
        share(page, as: key, compression: compression)
        return (page, .miss)
    }

    /// The map for `criteria`: every matching item's marker, in the collection's marker order.
    package func map(for criteria: ListCriteria<C>, compression: PageCompression? = nil) -> (ListPage, CacheOutcome) {
        let (result, _) = sortedResult(for: criteria)
        let key = PageKey.list(criteria, revision: result.token.revision)
        if let cached = sharedPage(key, now: now, compression: compression) { return (cached, .sharedHit) }
        let counts = ServerTimings.measure("counts") { self.counts(for: criteria) }
        let items = (try? contents(of: result, criteria: criteria))?.items ?? []
        var formattedTotal = ""
        let (markers, _) = ServerTimings.measure("format") {
            writeRows(display: criteria.display, access: criteria.access, now: now) { context, json in
                formattedTotal = context.formatting.count(items.count)
                json.beginArray()
                for item in items { _ = Self.writeListRow(item, version: 0, purpose: .map, in: &context, to: &json) }
                json.endArray()
                return nil
            }
        }
        let body = Self.pageBody(
            total: items.count, formattedTotal: formattedTotal, nextCursor: nil, purpose: .map,
            position: nil, counts: countsMembers(counts, display: criteria.display),
            criteria: criteriaJSON(criteria), itemsBytes: markers.count, items: { $0.raw(markers) })
        metrics.increment(.pagesBuilt)
        let page = ListPage(
            body: body, token: result.token, countsToken: counts.token, validUntil: min(criteria.validUntil, counts.validUntil))
        share(page, as: key, compression: compression)
        return (page, .miss)
    }

    /// One item's detail (its row, more fields, see `ListCollection.writeDetail`, and its version) for `display`, or `notFound`.
    /// An item outside `access` is not found, as if it did not exist; what the row says the
    /// reader may do follows `access`, so the page is shared per access.
    package func row(
        id: String, display: DisplayContext, access: AccessScope, compression: PageCompression? = nil
    ) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        guard let (item, revision) = state.itemAndRevision(id: id), access.admits(C.owner(of: item)) else {
            throw .notFound(C.itemName, id: id)
        }
        let key = PageKey.row(id: id, display, access, revision: revision)
        if let cached = sharedPage(key, now: now, compression: compression) { return (cached, .sharedHit) }
        // A row's key holds its revision, so its token never needs revoking.
        let page = ServerTimings.measure("format") { formattedRow(item, display: display, access: access) }
        metrics.increment(.rowsFormatted)
        share(page, as: key, compression: compression)
        return (page, .miss)
    }

    /// The shared page under `key` if it is still fresh, with the compressed body `compression`
    /// asks for; one compressed now is counted again at its new cost.
    private func sharedPage(_ key: PageKey, now: Date, compression: PageCompression?) -> ListPage? {
        guard isSharing, let cached = pages.withLock({ $0[key] }), cached.isFresh(now: now) else { return nil }
        if cached.prepare(compression) {
            pages.withLock { cache in
                guard let held = cache[key], held === cached else { return }
                cache.insert(key, cached, cost: cached.cost)
            }
        }
        return cached
    }

    /// Keeps a new page in the shared cache, with the compressed body `compression` asks for,
    /// at the cost of both.
    private func share(_ page: ListPage, as key: PageKey, compression: PageCompression?) {
        _ = page.prepare(compression)
        if isSharing { pages.withLock { _ = $0.insert(key, page, cost: page.cost) } }
    }

    /// The list `criteria` names: shared if cached, else evaluated now.
    func sortedResult(for criteria: ListCriteria<C>) -> (SortedResult, CacheOutcome) {
        let key = criteria.definition
        if isSharing, let cached = results.withLock({ $0[key] }) { return (cached, .sharedHit) }
        let state = self.state
        let (slots, version) = state.evaluate(key)
        metrics.increment(.recomputations)
        let result = SortedResult(slots, version: version)
        results.withLock { cache in
            // A change applied since the evaluation would not have patched this result: do not keep it.
            guard isSharing, state.version == version else {
                result.token.revoke()
                return
            }
            cache[key]?.token.revoke()
            // An evicted result is no longer patched: its pages must not be served again.
            for evicted in cache.insert(key, result, cost: 4 * result.slots.count) { evicted.value.token.revoke() }
        }
        return (result, .miss)
    }
}
