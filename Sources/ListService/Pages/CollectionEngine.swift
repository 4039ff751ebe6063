import Foundation
import Basics

/// Computes a collection's lists and rows, shares them between sessions, and keeps them
/// current as items change: a change patches each cached list that holds the item in place
/// (remove, insert at its sorted position) and leaves every other list, page and ETag alone.
/// Bounded LRU caches keep memory flat whatever clients ask.
package final class CollectionEngine<C: ListCollection>: Sendable {
    package let metrics: ServiceMetrics
    private let current: Locked<CollectionState<C>>
    private let formatters: FormatterCache
    private let clock: @Sendable () -> Date
    private let results: Locked<LRUCache<ResultKey, SortedResult>>
    private let pages: Locked<LRUCache<PageKey, ListPage>>
    /// False when the shared caches are switched off (cold benchmarks): every miss computes.
    private let isSharing: Bool
    /// The collection's watched lists, told of every change after it is applied.
    package let live: LiveLists<C>

    /// Identifies a list: which items, in which order.
    struct ResultKey: Hashable {
        let view: C.View
        let scope: C.Scope
        let foldedSearch: String
        let sort: C.SortField
        let direction: SortDirection

        /// Whether `item` belongs to this list: the view's predicate and the search.
        func includes(_ item: C.Item) -> Bool {
            C.matches(C.filterFields(of: item), view: view, scope: scope)
                && (foldedSearch.isEmpty || C.searchableText(of: item).contains { TextFolding.fold($0).contains(foldedSearch) })
        }
    }

    /// Identifies one encoded response body.
    private enum PageKey: Hashable {
        case list(ListCriteria<C>, revision: UInt64)
        case row(id: String, DisplayContext, revision: UInt32)
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
        isSharing = pageCapacity > 0
        live = LiveLists(hub: hub)
        live.attach(to: self)
    }

    package var now: Date { clock() }

    /// The bytes the shared caches hold now (pages, and sorted results at 4 bytes a slot).
    package var sharedBytes: Int { pages.withLock { $0.totalCost } + results.withLock { $0.totalCost } }
    package var state: CollectionState<C> { current.withLock { $0 } }

    // MARK: reading

    /// The page for `criteria`, from the shared cache or computed now, with the compressed body
    /// `compression` asks for.
    package func page(
        for criteria: ListCriteria<C>, compression: PageCompression? = nil
    ) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let (result, _) = sortedResult(for: criteria)
        let key = PageKey.list(criteria, revision: result.token.revision)
        let now = self.now
        if let cached = sharedPage(key, now: now, compression: compression) { return (cached, .sharedHit) }
        let page = try buildPage(criteria, result: result, now: now)
        share(page, as: key, compression: compression)
        return (page, .miss)
    }

    /// The map for `criteria`: every matching item's marker, in the collection's marker order.
    package func map(for criteria: ListCriteria<C>, compression: PageCompression? = nil) -> (ListPage, CacheOutcome) {
        let (result, _) = sortedResult(for: criteria)
        let key = PageKey.list(criteria, revision: result.token.revision)
        if let cached = sharedPage(key, now: now, compression: compression) { return (cached, .sharedHit) }
        let items = contents(of: result, criteria: criteria)?.items ?? []
        let (markers, _) = writeRows(display: criteria.display, now: now) { context, json in
            json.beginArray()
            for item in items { _ = Self.writeListRow(item, version: 0, purpose: .map, in: &context, to: &json) }
            json.endArray()
            return nil
        }
        let body = Self.pageBody(
            total: items.count, nextCursor: nil, purpose: .map, criteria: criteriaJSON(criteria), items: { $0.raw(markers) })
        metrics.increment(.pagesBuilt)
        let page = ListPage(body: body, token: result.token, validUntil: criteria.validUntil)
        share(page, as: key, compression: compression)
        return (page, .miss)
    }

    /// One item's detail (its row, more fields, see `ListCollection.writeDetail`, and its version) for `display`, or `notFound`.
    package func row(
        id: String, display: DisplayContext, compression: PageCompression? = nil
    ) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        guard let (item, revision) = state.itemAndRevision(id: id) else { throw .notFound(C.itemName, id: id) }
        let key = PageKey.row(id: id, display, revision: revision)
        let now = self.now
        if let cached = sharedPage(key, now: now, compression: compression) { return (cached, .sharedHit) }
        let itemVersion = version(of: item)
        let (body, expiry) = writeRows(display: display, now: now) { context, json in
            json.beginObject()
            C.writeRow(item, in: &context, to: &json)
            C.writeDetail(item, in: &context, to: &json)
            json.field("version", itemVersion)
            json.endObject()
            return C.rowExpiry(of: item, in: context)
        }
        metrics.increment(.rowsFormatted)
        // A row's key holds its revision, so its token never needs revoking.
        let page = ListPage(body: body, token: CacheValidity(), validUntil: expiry ?? .distantFuture, itemVersion: itemVersion)
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
        let key = ResultKey(
            view: criteria.view, scope: criteria.scope, foldedSearch: criteria.foldedSearch, sort: criteria.sort,
            direction: criteria.direction)
        if isSharing, let cached = results.withLock({ $0[key] }) { return (cached, .sharedHit) }
        let state = self.state
        let (slots, version) = state.evaluate(
            view: criteria.view, scope: criteria.scope, foldedQuery: criteria.foldedSearch, sort: criteria.sort,
            direction: criteria.direction)
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

    // MARK: changing

    /// Changes past which rebuilding beats patching (an import of a whole feed).
    static var bulkChangeThreshold: Int { 512 }

    /// Applies changes to the items, then patches every cached list that held or now holds a
    /// changed item; other lists keep their results, pages and ETags. A bulk change builds a
    /// new state beside the old one, which keeps serving reads until the swap. Changes come
    /// from one writer at a time (`WriteCoordinator`).
    package func apply(_ changes: [ItemChange<C.Item>], at position: UInt64 = 0) {
        if changes.count > Self.bulkChangeThreshold {
            // Sized once for the batch: an import of a whole feed is its items' size again, never doubled.
            var items = state.allItems
            items.reserveCapacity(items.count + changes.count)
            var positions = [String: Int](minimumCapacity: items.count + changes.count)
            for (index, item) in items.enumerated() { positions[C.id(of: item)] = index }
            var deleted = Set<Int>()
            for change in changes {
                switch change {
                case .upsert(let item):
                    if let position = positions[C.id(of: item)] {
                        items[position] = item
                        deleted.remove(position)
                    } else {
                        positions[C.id(of: item)] = items.count
                        items.append(item)
                    }
                case .delete(let id):
                    if let position = positions[id] { deleted.insert(position) }
                }
            }
            positions = [:]  // let the id map go before the new state is built beside the old
            if !deleted.isEmpty {
                var kept: [C.Item] = []
                kept.reserveCapacity(items.count - deleted.count)
                for (index, item) in items.enumerated() where !deleted.contains(index) { kept.append(item) }
                items = kept
            }
            replaceAll(items, at: max(position, state.position))
            return
        }
        let state = self.state
        let (effects, version) = state.apply(changes, at: position)
        guard !effects.isEmpty else { return }
        results.withLock { cache in
            cache.updateValues { key, result in
                guard let patched = patch(result.slots, key: key, effects: effects, state: state) else {
                    return SortedResult(sharing: result, version: version)  // untouched: same slots, same token
                }
                result.token.revoke()
                metrics.increment(.listsPatched)
                return SortedResult(patched, version: version)
            }
        }
        live.changed(effects, engine: self)
    }

    /// `slots` with the changed items removed or moved to their sorted positions; nil when no
    /// change touches the list. All touched slots leave first (found by their keys before the
    /// batch), then each item's final state goes back in (found by its key now): every search
    /// compares items by the values that placed them.
    private func patch(
        _ slots: SlotOrder, key: ResultKey, effects: [CollectionState<C>.Effect], state: CollectionState<C>
    ) -> SlotOrder? {
        var before: [Int32: C.Item?] = [:]
        var touched = Set<Int32>()
        for effect in effects {
            if before[effect.slot] == nil { before[effect.slot] = .some(effect.old) }
            if effect.old.map(key.includes) == true || effect.new.map(key.includes) == true { touched.insert(effect.slot) }
        }
        guard !touched.isEmpty else { return nil }
        var patched = slots
        state.withItemLookup { current in
            // Where each item sits now: touched ones by their value before the batch.
            func placed(_ slot: Int32) -> C.Item? { touched.contains(slot) ? (before[slot] ?? nil) : current(slot) }
            for slot in touched {
                guard let old = before[slot] ?? nil, key.includes(old) else { continue }
                let sortKey = C.sortKey(of: old, by: key.sort), id = C.id(of: old)
                let point = patched.partitionPoint {
                    CollectionState<C>.sorts($0, after: sortKey, id: id, field: key.sort, direction: key.direction, item: placed)
                }
                if !patched.remove(slot, before: point) { patched.removeScanning(slot) }
            }
            for slot in touched {
                guard let item = current(slot), key.includes(item) else { continue }
                let sortKey = C.sortKey(of: item, by: key.sort), id = C.id(of: item)
                patched.insert(
                    slot,
                    at: patched.partitionPoint {
                        CollectionState<C>.sorts($0, after: sortKey, id: id, field: key.sort, direction: key.direction, item: current)
                    })
            }
        }
        return patched
    }

    /// An item's detail for `display`, formatted now and not cached (for `If-Match` on items a
    /// write batch has already changed).
    package func formattedRow(_ item: C.Item, display: DisplayContext) -> ListPage {
        let itemVersion = version(of: item)
        let (body, expiry) = writeRows(display: display, now: now) { context, json in
            json.beginObject()
            C.writeRow(item, in: &context, to: &json)
            C.writeDetail(item, in: &context, to: &json)
            json.field("version", itemVersion)
            json.endObject()
            return C.rowExpiry(of: item, in: context)
        }
        return ListPage(body: body, token: CacheValidity(), validUntil: expiry ?? .distantFuture, itemVersion: itemVersion)
    }

    /// The item's version: a digest of its stored form, the same in every locale and zone and
    /// across restarts; it changes with every change to the item.
    package func version(of item: C.Item) -> String {
        String(zeroPadded: ItemVersions<C>.digest(of: item), width: 16, radix: 16)
    }

    /// Replaces every item (bulk changes, tests): every list recomputes on next use.
    /// `position`: the log position the items reflect.
    package func replaceAll(_ items: [C.Item], at position: UInt64 = 0) {
        let rebuilt = CollectionState<C>(items: items, logPosition: position)  // built while the old state serves reads
        current.withLock { $0 = rebuilt }
        results.withLock { cache in
            cache.updateValues { _, result in
                result.token.revoke()
                return nil
            }
            cache = LRUCache(capacity: cache.capacity, maxCost: cache.maxCost)
        }
        live.replacedAll(engine: self)
    }

    // MARK: writing pages

    /// Runs `body` with a row context for `display`, collecting what it writes.
    func writeRows(
        display: DisplayContext, now: Date, _ body: (inout RowContext<C.Phrases>, inout JSONWriter) -> Date?
    ) -> ([UInt8], Date?) {
        let formatters = formatters.formatters(for: display)
        return formatters.withFormatters { formatting in
            var context = RowContext(
                formatting: formatting, phrases: C.translations.phrases(for: display.localeTag), display: display, now: now)
            var json = JSONWriter(reservingCapacity: 4096)
            let expiry = body(&context, &json)
            formatting = context.formatting
            return (json.bytes, expiry)
        }
    }

    private func buildPage(_ criteria: ListCriteria<C>, result: SortedResult, now: Date) throws(ListServiceError) -> ListPage {
        guard let contents = contents(of: result, criteria: criteria) else {
            throw .invalidParameter("cursor", "The cursor does not fit this list's sort order.")
        }
        let items = contents.items
        let versions = contents.versions()
        let (rows, expiry) = writeRows(display: criteria.display, now: now) { context, json in
            var expiry: Date?
            json.beginArray()
            for (item, version) in zip(items, versions) {
                if let rowExpiry = Self.writeListRow(item, version: version, purpose: .list, in: &context, to: &json) {
                    expiry = min(expiry ?? rowExpiry, rowExpiry)
                }
            }
            json.endArray()
            return expiry
        }
        metrics.increment(.rowsFormatted, by: items.count)
        metrics.increment(.pagesBuilt)
        let nextCursor = contents.hasMore ? items.last.map { self.nextCursor(after: $0, criteria: criteria) } : nil
        let body = Self.pageBody(
            total: contents.total, nextCursor: nextCursor, purpose: .list, criteria: criteriaJSON(criteria), items: { $0.raw(rows) })
        return ListPage(body: body, token: result.token, validUntil: min(criteria.validUntil, expiry ?? .distantFuture))
    }

    /// One row object of a list (with its item's version, what `If-Match` takes, so a client
    /// writes straight from a list) or one marker of a map, as every page and live list
    /// writes it; the instant the row's text goes stale, if it does.
    static func writeListRow(
        _ item: C.Item, version: UInt64, purpose: ListPurpose, in context: inout RowContext<C.Phrases>, to json: inout JSONWriter
    ) -> Date? {
        json.beginObject()
        if purpose == .map {
            C.writeMarker(item, in: &context, to: &json)
        } else {
            C.writeRow(item, in: &context, to: &json)
            json.field("version", hexDigits: version)
        }
        json.endObject()
        return C.rowExpiry(of: item, in: context)
    }

    /// A page's body: `items` (written by `items`), `total`, `nextCursor` (lists only) and the
    /// encoded `criteria`; pages and live snapshots alike.
    static func pageBody(
        total: Int, nextCursor: String?, purpose: ListPurpose, criteria: [UInt8], items: (inout JSONWriter) -> Void
    ) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 4096)
        json.beginObject()
        json.key("items")
        items(&json)
        json.field("total", total)
        if purpose == .list { json.field("nextCursor", nextCursor) }
        json.key("criteria")
        json.raw(criteria)
        json.endObject()
        return json.bytes
    }

    /// The cursor of the page after one that ends with `last`.
    func nextCursor(after last: C.Item, criteria: ListCriteria<C>) -> String {
        PageCursor(fingerprint: criteria.fingerprint, sortValue: C.sortKey(of: last, by: criteria.sort).cursorText, id: C.id(of: last))
            .encoded
    }

    /// The criteria as applied (defaults filled in), encoded: a page's `criteria` member.
    func criteriaJSON(_ criteria: ListCriteria<C>) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256)
        writeCriteria(criteria, to: &json)
        return json.bytes
    }

    /// The page's rows and total, read together (see `CollectionState.page`); nil for a bad cursor.
    func contents(of result: SortedResult, criteria: ListCriteria<C>) -> CollectionState<C>.PageContents? {
        state.page(
            of: result.slots, version: result.version, view: criteria.view, scope: criteria.scope,
            foldedQuery: criteria.foldedSearch, sort: criteria.sort, direction: criteria.direction, start: criteria.start,
            limit: criteria.limit)
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
            json.optionalString(criteria.appliedParameters[name])
        }
        json.field("q", criteria.search)
        if criteria.purpose == .list {
            json.field("sort", criteria.sort.rawValue)
            json.field("order", criteria.direction.rawValue)
            json.field("limit", criteria.limit)
        }
        json.field("locale", criteria.display.localeTag)
        json.field("tz", criteria.display.timeZoneIdentifier)
        json.endObject()
    }
}
