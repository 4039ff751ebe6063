import Basics
import Foundation

/// A collection's items with everything a query needs, built at load and kept current in place
/// as items change: filter fields, the search index, the member bitmaps of the views queried
/// lately and, per sort field and direction, the order of all live items (ties by id). A query
/// is a search that clears bits and one walk of a presorted order testing them, never a sort;
/// a change costs a few binary searches and array moves, never a rebuild.
///
/// Item slots are stable: an update keeps its slot, a delete leaves a tombstone, an insert
/// appends, so index lists held by caches stay meaningful.
package final class CollectionState<C: ListCollection>: @unchecked Sendable {
    // Invariant: every `var` below is read only inside `lock.withReadLock` and written only
    // inside `lock.withWriteLock`; that is what makes the unchecked Sendable sound.
    private let lock = ReadWriteLock()
    /// Items by slot; a deleted slot keeps its last item until the next rebuild (`isLive` false),
    /// so loading never copies the whole array into optionals.
    private var storedItems: [C.Item]
    private var isLive: [Bool]
    /// Slots by id; the ids themselves are read from the items (a deleted slot keeps its id).
    private var slotByID: ReferenceTable
    private var filterFields: [C.FilterFields?]
    private var search: SearchIndex
    /// Each sort field's order of the live items in its stored direction, stretches of equal
    /// keys marked: the other direction is read from it (`SlotOrder.reversedRuns`). A text
    /// field has one per collation its lists were asked in (the root one from the start).
    /// Read under the read lock, and added to there (hence its own lock: an order built then
    /// is of the items as they are, as in `viewMembers`); changed under the write lock.
    private let sortOrders: Locked<[OrderKey: SlotOrder]>
    /// Each owner's slots, ascending (unowned items are in no list): what an owner's list is
    /// made from, so one customer's orders are found without walking a million.
    private var slotsByOwner: [OwnerID: [Int32]]
    private var revisions: [UInt32]
    private var liveCount: Int
    /// Bumped by every change.
    private var changeCount: UInt64 = 0
    /// The shared change log's position of the last change this state holds (0 without one):
    /// equal positions mean equal items on every replica.
    private var logPosition: UInt64
    /// Members of the views queried lately, by slot. Read under the read lock by many queries
    /// at once (hence its own lock), changed under the write lock.
    private let viewMembers = Locked<[ViewScope: SlotBits]>([:])
    /// Which items the searches made lately find, by slot, kept current like `viewMembers`: a
    /// new search is run once over every item, for its lists and its counts alike.
    private let searchMatches = Locked<[String: SlotBits]>([:])
    /// Versions of this state's items, by slot and revision (a new state starts afresh).
    private let itemVersions = ItemVersions<C>()
    /// The open snapshots (exports under way) and the items changes replaced since each opened.
    private let snapshots: Locked<SnapshotBook<C.Item>>

    /// The direction `field`'s order is kept in: the one its lists are read in by default (the
    /// newest first, the most urgent first), so that those need no reversing.
    static func storedDirection(of field: C.SortField) -> SortDirection {
        C.defaultDirection(for: field, view: C.defaultView)
    }

    /// `maxKeptSnapshotItems` bounds what one export's snapshot keeps (see `SnapshotBook`).
    package init(items: [C.Item], logPosition: UInt64 = 0, maxKeptSnapshotItems: Int = 200_000) {
        self.logPosition = logPosition
        snapshots = Locked(SnapshotBook(maxKeptItems: maxKeptSnapshotItems))
        let indexes = Indexes(items)
        storedItems = items
        isLive = Array(repeating: true, count: items.count)
        slotByID = indexes.slotByID
        filterFields = indexes.filterFields
        search = indexes.search
        sortOrders = Locked(indexes.sortOrders)
        slotsByOwner = indexes.slotsByOwner
        revisions = Array(repeating: 0, count: items.count)
        liveCount = items.count
    }

    /// The slot that holds or held the item with `id` (callers hold the lock).
    private func slot(of id: String) -> Int32? {
        slotByID.find(hash: id.hashValue) { C.id(of: storedItems[Int($0)]) == id }
    }

    /// The live item in `slot`, or nil for a deleted one (callers hold the lock).
    private func items(_ slot: Int) -> C.Item? { isLive[slot] ? storedItems[slot] : nil }

    package var count: Int { lock.withReadLock { liveCount } }
    package var version: UInt64 { lock.withReadLock { changeCount } }
    /// The log position of the last change held (see `logPosition`).
    package var position: UInt64 { lock.withReadLock { logPosition } }

    package func item(id: String) -> C.Item? {
        lock.withReadLock { slot(of: id).flatMap { items(Int($0)) } }
    }

    /// The item and its revision (which changes with every change to it).
    func itemAndRevision(id: String) -> (item: C.Item, revision: UInt32)? {
        lock.withReadLock {
            guard let slot = slot(of: id).map(Int.init), let item = items(slot) else { return nil }
            return (item, revisions[slot])
        }
    }

    /// Each owner with how many live items they hold, most first (ties by account).
    package var ownersByItemCount: [(owner: OwnerID, count: Int)] {
        let counts = lock.withReadLock { slotsByOwner.map { (owner: $0.key, count: $0.value.count { isLive[Int($0)] }) } }
        return counts.filter { $0.count > 0 }.sorted {
            $0.count != $1.count ? $0.count > $1.count : ($0.owner.text ?? "") < ($1.owner.text ?? "")
        }
    }

    /// The first live item `owner` holds, in slot order.
    package func firstItem(ownedBy owner: OwnerID) -> C.Item? {
        lock.withReadLock { slotsByOwner[owner]?.lazy.compactMap { self.items(Int($0)) }.first }
    }

    /// The largest `value` of a live item (0 when there is none), without copying the items.
    func largest(_ value: (C.Item) -> Int) -> Int {
        lock.withReadLock {
            storedItems.withUnsafeBufferPointer { items in items.indices.reduce(0) { isLive[$1] ? max($0, value(items[$1])) : $0 } }
        }
    }

    /// Every live item, in slot order. Without deleted slots this is the stored array itself,
    /// shared rather than copied (a million orders are 150 MB); a write made while the caller
    /// still holds it copies it once, so a snapshot reads `forEachItemInChunks` instead.
    package var allItems: [C.Item] {
        lock.withReadLock { liveCount == storedItems.count ? storedItems : storedItems.indices.compactMap { items($0) } }
    }

    /// Hands every live item to `body`, in slot order: how a snapshot reads the items off the
    /// writer queue. The items are copied `chunkSize` at a time under the read lock and handed
    /// over after it is released, so a write waits for one short copy at most, and the whole
    /// collection is never copied (a million orders are 144 MB; sharing the stored array
    /// instead made the next write copy all of it, on the writer queue). Items changed
    /// meanwhile may come from either side of the change: a snapshot is taken after the
    /// journal rotated, and replaying the new journal's records, whole items in order, ends at
    /// the latest state whichever side the snapshot saw.
    package func forEachItemInChunks(of chunkSize: Int = 1024, _ body: (C.Item) -> Void) {
        var chunk: [C.Item] = []
        chunk.reserveCapacity(chunkSize)
        var start = 0
        var isDone = false
        while !isDone {
            chunk.removeAll(keepingCapacity: true)
            isDone = lock.withReadLock {
                let end = min(start + chunkSize, storedItems.count)
                for slot in start..<end where isLive[slot] { chunk.append(storedItems[slot]) }
                start = end
                return end == storedItems.count
            }
            chunk.forEach(body)
        }
    }

    /// The slots of the items `list` holds (its view in its scope, within its access, whose
    /// text contains its search), sorted by its field in its direction, ties by id; with the
    /// version it was computed at.
    func evaluate(_ list: ListDefinition<C>) -> (slots: SlotOrder, version: UInt64) {
        lock.withReadLock { (evaluateLocked(list), changeCount) }
    }

    /// The most collations whose text orders are kept, the root one included (each is a slot
    /// array per text field: 4 MB at a million items). A list in a further collation is
    /// sorted whenever it is evaluated.
    private static var maxKeptCollations: Int { 8 }

    /// The presorted order `key` names (callers hold the lock): the kept one, else built now
    /// (the first list in a collation) and kept if its collation is, or fewer than
    /// `maxKeptCollations` are. Writes keep every kept order current.
    private func storedOrder(_ key: OrderKey) -> SlotOrder {
        if let kept = sortOrders.withLock({ $0[key] }) { return kept }
        let order = ServerTimings.measure("collate") {
            let idRank = Indexes.idRanks(storedItems, isLive: isLive)
            return storedItems.withUnsafeBufferPointer { Indexes.sortOrder(of: $0, isLive: isLive, by: key, idRank: idRank) }
        }
        sortOrders.withLock { orders in
            let kept = Set(orders.keys.map(\.collation))
            if kept.contains(key.collation) || kept.count < Self.maxKeptCollations { orders[key] = order }
        }
        return order
    }

    /// `evaluate` for a caller that holds the lock. When every item matches, the presorted
    /// order itself is the answer (shared, not copied).
    private func evaluateLocked(_ list: ListDefinition<C>) -> SlotOrder {
        let stored = storedOrder(OrderKey(list))
        let isStoredDirection = list.direction == Self.storedDirection(of: list.sort)
        // The slots of the stored order set in `bits` (all when nil), in the list's direction.
        func ordered(keeping bits: SlotBits?) -> SlotOrder {
            guard isStoredDirection else { return stored.reversedRuns(keeping: bits) }
            return bits.map { stored.filtered(by: $0) } ?? stored
        }
        guard case .owner(let owner) = list.access else {
            if C.holdsEveryItem(list.view) && list.foldedSearch.isEmpty { return ordered(keeping: nil) }
            let (matches, found) = ServerTimings.measure("filter") {
                var matches = members(of: ViewScope(view: list.view, scope: list.scope))
                if !list.foldedSearch.isEmpty { matches.formIntersection(self.matches(of: list.foldedSearch)) }
                return (matches, matches.setCount)
            }
            if found == 0 { return SlotOrder([]) }
            if stored.count == liveCount && found == liveCount { return ordered(keeping: nil) }
            return ServerTimings.measure("sort") { ordered(keeping: matches) }
        }
        // One owner's items: their slots, kept by the view and the search, then sorted on their
        // own when few (a walk of the whole presorted order costs a million steps).
        let own = slotsByOwner[owner] ?? []
        guard !own.isEmpty else { return SlotOrder([]) }
        let (matches, found) = ServerTimings.measure("filter") {
            var matches = SlotBits(count: filterFields.count)
            let members = C.holdsEveryItem(list.view) ? nil : self.members(of: ViewScope(view: list.view, scope: list.scope))
            for slot in own where isLive[Int(slot)] && members?[Int(slot)] != false { matches[Int(slot)] = true }
            search.keepMatches(of: list.foldedSearch, in: &matches)
            return (matches, own.filter { matches[Int($0)] })
        }
        return ServerTimings.measure("sort") {
            guard found.count * Self.ownSortFactor < stored.count else { return ordered(keeping: matches) }
            let keys = found.map {
                (slot: $0, key: C.sortKey(of: storedItems[Int($0)], by: list.sort, in: list.collation), id: C.id(of: storedItems[Int($0)]))
            }
            let ordered = keys.sorted { list.direction.places($1.key, $1.id, after: $0.key, $0.id) }
            return SlotOrder(ordered.map(\.slot))
        }
    }

    /// How many items each view (in its scope) holds among those `foldedSearch` finds, from
    /// the views' member bits and the search's match bits; with the version they are of.
    func countMembers(of views: [(view: C.View, scope: C.Scope)], foldedSearch: String) -> (counts: [Int], version: UInt64) {
        lock.withReadLock {
            let found = foldedSearch.isEmpty ? nil : matches(of: foldedSearch)
            let counts = views.map { view in
                let members = members(of: ViewScope(view: view.view, scope: view.scope))
                return found.map { members.intersectionCount($0) } ?? members.setCount
            }
            return (counts, changeCount)
        }
    }

    /// Hands `body` the filter fields of every live item `access` admits whose text contains
    /// `foldedSearch` (what a list's counts count), all under one read lock; returns the
    /// version they are of.
    func forEachFilterFields(access: AccessScope, foldedSearch: String, _ body: (C.FilterFields) -> Void) -> UInt64 {
        lock.withReadLock {
            var own: [Int32]?
            if case .owner(let owner) = access { own = slotsByOwner[owner] ?? [] }
            if foldedSearch.isEmpty {
                if let own {
                    for slot in own { if let fields = filterFields[Int(slot)] { body(fields) } }
                } else {
                    for fields in filterFields { if let fields { body(fields) } }
                }
                return changeCount
            }
            var matches: SlotBits
            if let own {
                matches = SlotBits(count: filterFields.count)
                for slot in own { matches[Int(slot)] = true }
                search.keepMatches(of: foldedSearch, in: &matches)
            } else {
                matches = self.matches(of: foldedSearch)
            }
            matches.forEachWord { index, word in
                var bits = word
                while bits != 0 {
                    let slot = index * 64 + bits.trailingZeroBitCount
                    bits &= bits - 1
                    if slot < filterFields.count, let fields = filterFields[slot] { body(fields) }
                }
            }
            return changeCount
        }
    }

    /// An owner's items are sorted on their own when they are fewer than the whole order's
    /// length over this (a sort of n compares n·log n keys; the walk reads every slot).
    private static var ownSortFactor: Int { 64 }

    /// A view in a scope: what a membership bitmap is kept for.
    private struct ViewScope: Hashable {
        let view: C.View
        let scope: C.Scope
    }

    /// Which items `viewScope` holds: from the cache, else one pass over the filter fields
    /// (then cached, up to `maxCachedViews`; changes keep the cached ones current).
    private func members(of viewScope: ViewScope) -> SlotBits {
        if let cached = viewMembers.withLock({ $0[viewScope] }) { return cached }
        var members = SlotBits(count: filterFields.count)
        for (slot, fields) in filterFields.enumerated() {
            if let fields, C.matches(fields, view: viewScope.view, scope: viewScope.scope) { members[slot] = true }
        }
        viewMembers.withLock { cache in
            if cache.count >= Self.maxCachedViews { cache.removeAll() }
            cache[viewScope] = members
        }
        return members
    }

    /// The most views whose members are kept (orders have six filters; `currentMonth` has one
    /// per month and time zone offset in use).
    private static var maxCachedViews: Int { 64 }

    /// The items `foldedSearch` (not empty) finds: from the cache, else searched now (then
    /// cached, up to `maxCachedSearches`; changes keep the cached ones current) among the
    /// matches of the longest cached search it contains (what finds "john" finds "jo": typing
    /// narrows), else among every item.
    private func matches(of foldedSearch: String) -> SlotBits {
        let (cached, wider) = searchMatches.withLock { cache in
            cache[foldedSearch].map { ($0, nil) }
                ?? (nil, cache.filter { foldedSearch.contains($0.key) }.max { $0.key.count < $1.key.count }?.value)
        }
        if let cached { return cached }
        var matches = wider ?? SlotBits(count: filterFields.count, set: true)
        search.keepMatches(of: foldedSearch, in: &matches)
        searchMatches.withLock { cache in
            if cache.count >= Self.maxCachedSearches { cache.removeAll() }
            cache[foldedSearch] = matches
        }
        return matches
    }

    /// The most searches whose matches are kept (128 KiB each at a million items).
    private static var maxCachedSearches: Int { 32 }

    /// Sets `slot`'s bit in every cached search to whether its folded text (nil: deleted)
    /// holds the search, as the index would find it (under the write lock).
    private func updateSearchMatches(slot: Int32, foldedText: [String]?) {
        searchMatches.withLock { cache in
            for key in Array(cache.keys) { cache[key]?[Int(slot)] = foldedText.map { TextFolding.search(key, findsIn: $0) } ?? false }
        }
    }

    /// Sets `slot`'s bit in every cached view to whether its item belongs (under the write lock).
    private func updateViewMembers(slot: Int32) {
        let fields = filterFields[Int(slot)]
        viewMembers.withLock { cache in
            for key in Array(cache.keys) {
                cache[key]?[Int(slot)] = fields.map { C.matches($0, view: key.view, scope: key.scope) } ?? false
            }
        }
    }

    /// One page read under one lock, so its rows and its total describe the same moment: the
    /// list is `slots` if they are of the current version, else evaluated again right here.
    struct PageContents {
        let total: Int
        /// The page's own copies of its items (a `var`, so a writer can move them out).
        var items: [C.Item]
        /// Each item's slot and revision in the state that made the page, and that state's
        /// remembered versions.
        let slots: [Int32]
        let revisions: [UInt32]
        let itemVersions: ItemVersions<C>
        /// The rank of the page's first row in the whole list.
        let index: Int
        /// Whether more rows follow the page.
        let hasMore: Bool
        /// The state's log position when the page was read.
        let logPosition: UInt64
        /// The state's version when the page was read.
        let version: UInt64
        /// The whole list's sections, when asked for (see `SectionReading`), each with its last
        /// item, and when a summary changes by itself.
        var sections: [(run: SlotRun, last: C.Item)] = []
        var sectionsExpiry: Date?

        /// Each item's version (what `If-Match` takes), in page order.
        func versions() -> [UInt64] { itemVersions.versions(of: self) }
    }

    /// The page of `slots` (the list `definition` names, evaluated again here if a change came
    /// since) that `start` and `limit` name; a cursor that does not fit the list is a 400, an
    /// `around` item it does not hold a 404 (`not-in-list`).
    func page(
        of slots: SlotOrder, version: UInt64, list definition: ListDefinition<C>, start: PageStart, limit: Int,
        sections: SectionReading? = nil
    ) throws(ListServiceError) -> PageContents {
        let (field, direction, collation) = (definition.sort, definition.direction, definition.collation)
        let read = lock.withReadLock { () -> Result<PageContents, ListServiceError> in
            let list = version == changeCount ? slots : evaluateLocked(definition)
            // The whole list's sections, when asked for, read first: a section cursor finds its start among them.
            let whole = sections.flatMap { $0.readsAll ? self.sections(of: list, reading: $0) : nil }
            let first: Int
            switch start {
            case .first: first = 0
            case .offset(let offset): first = min(offset, list.count)
            case .after(let cursor):
                guard let key = SortKey(cursorText: cursor.sortValue, collation: collation),
                    // A sort value of another kind (a name in a list by total) was not issued for this list.
                    list.slots(in: 0..<min(1, list.count)).first.flatMap({ self.items(Int($0)) }).map({
                        key.isSameKind(as: C.sortKey(of: $0, by: field, in: collation))
                    }) != false
                else {
                    return .failure(.invalidParameter("cursor", "The cursor does not fit this list's sort order."))
                }
                first = list.index(
                    of: list.partitionPoint {
                        Self.sorts($0, after: key, id: cursor.id, in: OrderKey(definition), direction: direction) { self.items(Int($0)) }
                    })
            case .around(let id):
                guard let rank = rank(of: id, in: list, definition: definition) else { return .failure(.notInList(C.itemName, id: id)) }
                first = max(0, min(rank - limit / 2, list.count - limit))
            case .section(let cursor):
                guard let sections,
                    let rank = rank(
                        ofSection: cursor.key, among: whole?.sections.map(\.run) ?? runs(of: list, reading: sections), reading: sections)
                else {
                    let detail = "The section this cursor opens is no longer in the list (or the list is not grouped so)."
                    return .failure(.invalidParameter("cursor", detail))
                }
                first = rank
            }
            let end = first + min(limit, list.count - first)
            let slots = list.slots(in: first..<end).filter { isLive[Int($0)] }
            var contents = PageContents(
                total: list.count, items: slots.map { storedItems[Int($0)] }, slots: slots,
                revisions: slots.map { revisions[Int($0)] }, itemVersions: itemVersions, index: first, hasMore: end < list.count,
                logPosition: logPosition, version: changeCount)
            if let whole { (contents.sections, contents.sectionsExpiry) = whole }
            return .success(contents)
        }
        return try read.get()
    }

    /// What a page reads of its list's sections: how the list is grouped, for whom and when,
    /// and whether every section is read with the page (else only where the one a section
    /// cursor names starts).
    struct SectionReading {
        let grouping: C.Grouping
        let context: SectionContext
        var readsAll = true
    }

    /// The rank where the section with `key` starts, among a list's section `runs`; nil when
    /// the list has no such section.
    private func rank(ofSection key: String, among runs: [SlotRun], reading: SectionReading) -> Int? {
        C.sectionKeys(of: runs.lazy.map(\.key), grouping: reading.grouping, in: reading.context).firstIndex(of: key).map { runs[$0].start }
    }

    /// A list's sections without their summaries (callers hold the lock): where a page opened at
    /// a section looks when the whole list's sections are not read with it.
    private func runs(of list: SlotOrder, reading: SectionReading) -> [SlotRun] {
        let (grouping, context) = (reading.grouping, reading.context)
        return storedItems.withUnsafeBufferPointer { items in
            list.runs(key: { slot in C.section(of: items[Int(slot)], grouping: grouping, in: context) })
        }
    }

    /// The sections of `list` (callers hold the lock): each with its last item, and when a
    /// summary changes by itself. Items are read in place, by the collection's own functions.
    private func sections(
        of list: SlotOrder, reading: SectionReading
    ) -> (sections: [(run: SlotRun, last: C.Item)], expiry: Date?) {
        let (grouping, context) = (reading.grouping, reading.context)
        var expiry: Date?
        let runs = storedItems.withUnsafeBufferPointer { items in
            let section = { (slot: Int32) in C.section(of: items[Int(slot)], grouping: grouping, in: context) }
            guard C.summarizes(grouping), let first = items.baseAddress else { return list.runs(key: section) }
            return list.runs(key: section) { slot in
                let item = first + Int(slot)
                if let due = C.summaryExpiry(of: item, grouping: grouping, in: context) { expiry = min(expiry ?? due, due) }
                return C.summaryValue(of: item, grouping: grouping, in: context)
            }
        }
        return (runs.map { ($0, storedItems[Int($0.lastSlot)]) }, expiry)
    }

    /// Where the item with `id` sits in `list` (callers hold the lock); nil when the list does not hold it.
    private func rank(of id: String, in list: SlotOrder, definition: ListDefinition<C>) -> Int? {
        guard let slot = slot(of: id), let item = items(Int(slot)), definition.includes(item) else { return nil }
        let key = C.sortKey(of: item, by: definition.sort, in: definition.collation)
        let after = list.index(
            of: list.partitionPoint {
                Self.sorts($0, after: key, id: id, in: OrderKey(definition), direction: definition.direction) { self.items(Int($0)) }
            })
        guard after > 0, list.slots(in: (after - 1)..<after) == [slot] else { return nil }
        return after - 1
    }

    /// Whether `slot`'s item sorts after (`key`, `id`) in `order` in `direction`, ties by id
    /// ascending; `item` looks items up.
    static func sorts(
        _ slot: Int32, after key: SortKey, id: String, in order: OrderKey, direction: SortDirection, item: (Int32) -> C.Item?
    ) -> Bool {
        guard let candidate = item(slot) else { return false }
        return direction.places(C.sortKey(of: candidate, by: order.field, in: order.collation), C.id(of: candidate), after: key, id)
    }

    /// Runs `body` with item lookup by slot, under the read lock.
    func withItemLookup<T>(_ body: ((Int32) -> C.Item?) -> T) -> T {
        lock.withReadLock { body { self.items(Int($0)) } }
    }

    // MARK: snapshots

    /// Opens a snapshot of `slots` (the list `definition` names, evaluated again here if a
    /// change came since): until it closes, it reads the list's items as they are now.
    func openSnapshot(of slots: SlotOrder, version: UInt64, list definition: ListDefinition<C>) -> ListSnapshot<C> {
        lock.withReadLock {
            let list = version == changeCount ? slots : evaluateLocked(definition)
            let id = snapshots.withLock { $0.openSnapshot(slotLimit: storedItems.count) }
            return ListSnapshot(state: self, id: id, slots: list)
        }
    }

    /// The items in `slots` as snapshot `id` saw them, with their revisions then; nil when it
    /// is overrun (see `SnapshotBook`).
    func snapshotItems(_ id: UInt64, at slots: [Int32]) -> [(item: C.Item, revision: UInt32)]? {
        lock.withReadLock {
            snapshots.withLock { book in
                guard let kept = book.open[id], !kept.isOverrun else { return nil }
                return slots.map { kept.items[$0] ?? (storedItems[Int($0)], revisions[Int($0)]) }
            }
        }
    }

    func closeSnapshot(_ id: UInt64) { snapshots.withLock { $0.close(id) } }

    /// Before `slot` changes: keeps its live item for the open snapshots (under the write lock).
    private func keepForSnapshots(_ slot: Int32) {
        guard isLive[Int(slot)] else { return }
        snapshots.withLock { book in
            if !book.isEmpty { book.keep(slot) { (storedItems[Int(slot)], revisions[Int(slot)]) } }
        }
    }

    // MARK: changes

    /// What one change did: the item before and after (nil: absent) and its slot.
    struct Effect {
        let slot: Int32
        let old: C.Item?
        let new: C.Item?
    }

    /// Inserts, replaces or deletes items in place, keeping every index current; `position`
    /// is the log position of the last change (0 without a shared log).
    func apply(_ changes: [ItemChange<C.Item>], at position: UInt64 = 0) -> (effects: [Effect], version: UInt64) {
        lock.withWriteLock {
            logPosition = max(logPosition, position)
            var effects: [Effect] = []
            for change in changes {
                switch change {
                case .upsert(let item):
                    let id = C.id(of: item)
                    if let slot = slot(of: id) {
                        keepForSnapshots(slot)
                        let old = items(Int(slot))
                        removeFromSortOrders(slot: slot, item: old)
                        moveOwner(of: slot, from: old, to: item)
                        store(item, at: slot)
                        if old == nil { liveCount += 1 }
                        effects.append(Effect(slot: slot, old: old, new: item))
                    } else {
                        let slot = Int32(storedItems.count)
                        storedItems.append(item)
                        isLive.append(false)
                        filterFields.append(nil)
                        revisions.append(0)
                        slotByID.insert(slot, hash: id.hashValue) { C.id(of: storedItems[Int($0)]).hashValue }
                        moveOwner(of: slot, from: nil, to: item)
                        store(item, at: slot)
                        liveCount += 1
                        effects.append(Effect(slot: slot, old: nil, new: item))
                    }
                case .delete(let id):
                    guard let slot = slot(of: id), let old = items(Int(slot)) else { continue }
                    keepForSnapshots(slot)
                    removeFromSortOrders(slot: slot, item: old)
                    moveOwner(of: slot, from: old, to: nil)
                    isLive[Int(slot)] = false
                    filterFields[Int(slot)] = nil
                    updateViewMembers(slot: slot)
                    revisions[Int(slot)] &+= 1
                    search.set(item: Int(slot), to: nil)
                    updateSearchMatches(slot: slot, foldedText: nil)
                    liveCount -= 1
                    effects.append(Effect(slot: slot, old: old, new: nil))
                }
            }
            changeCount += 1
            return (effects, changeCount)
        }
    }

    /// Writes `item` into `slot` and its sort positions (under the write lock).
    private func store(_ item: C.Item, at slot: Int32) {
        storedItems[Int(slot)] = item
        isLive[Int(slot)] = true
        filterFields[Int(slot)] = C.filterFields(of: item)
        updateViewMembers(slot: slot)
        revisions[Int(slot)] &+= 1
        let foldedText = C.searchableText(of: item).map(TextFolding.fold)
        search.set(item: Int(slot), to: foldedText)
        updateSearchMatches(slot: slot, foldedText: foldedText)
        sortOrders.withLock { orders in
            for order in Array(orders.keys) {
                let key = C.sortKey(of: item, by: order.field, in: order.collation)
                guard let point = sortPoint(of: item, key: key, in: order, of: orders) else { continue }
                orders[order]?.insert(slot, at: point) { neighbour in
                    self.items(Int(neighbour)).map { C.sortKey(of: $0, by: order.field, in: order.collation) } == key
                }
            }
        }
    }

    /// Moves `slot` from the owner of `old` to the owner of `new` (nil: none) in `slotsByOwner`,
    /// keeping each owner's slots ascending (under the write lock).
    private func moveOwner(of slot: Int32, from old: C.Item?, to new: C.Item?) {
        let before = old.map(C.owner) ?? .none, after = new.map(C.owner) ?? .none
        guard before != after else { return }
        if before != .none, var slots = slotsByOwner[before] {
            let index = slots.insertionIndex(of: slot)
            if index < slots.count && slots[index] == slot { slots.remove(at: index) }
            slotsByOwner[before] = slots.isEmpty ? nil : slots
        }
        if after != .none {
            var slots = slotsByOwner[after] ?? []
            slots.insert(slot, at: slots.insertionIndex(of: slot))
            slotsByOwner[after] = slots
        }
    }

    /// Where `item` sorts in the stored `order` (one of `orders`): before the first slot that
    /// sorts after its (key, id).
    private func sortPoint(
        of item: C.Item, key sortKey: SortKey, in order: OrderKey, of orders: [OrderKey: SlotOrder]
    ) -> SlotOrder.Position? {
        let id = C.id(of: item), direction = Self.storedDirection(of: order.field)
        return orders[order]?.partitionPoint {
            Self.sorts($0, after: sortKey, id: id, in: order, direction: direction) { self.items(Int($0)) }
        }
    }

    /// Takes `slot` out of every sort order: it sits just before the first slot that sorts
    /// after its own (key, id).
    private func removeFromSortOrders(slot: Int32, item: C.Item?) {
        guard let item else { return }
        sortOrders.withLock { orders in
            for order in Array(orders.keys) {
                let key = C.sortKey(of: item, by: order.field, in: order.collation)
                guard let point = sortPoint(of: item, key: key, in: order, of: orders) else { continue }
                if orders[order]?.remove(slot, before: point) != true { orders[order]?.removeScanning(slot) }
            }
        }
    }
}

/// One change to a collection: put an item (insert or replace by id) or delete one.
package enum ItemChange<Item: Sendable>: Sendable {
    case upsert(Item)
    case delete(id: String)
}

extension [Int32] {
    /// Where `value` is or would go in this ascending array: the first index whose element is
    /// not less than it.
    fileprivate func insertionIndex(of value: Int32) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
