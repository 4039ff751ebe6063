import Foundation

/// A list's counts (`counts` and `formattedCounts` on every answer): counted once per search,
/// access and count scope (the client's month or day), shared by every list and session with
/// those, and kept current by each change in O(number of counts), never by counting again.
extension CollectionEngine {
    /// What a list's counts depend on (not its view, sort or page).
    struct CountsKey: Hashable {
        let access: AccessScope
        let foldedSearch: String
        let scope: C.CountScope
        /// Hashed once: a live list keeps its key and looks its counts up on every change.
        private let hash: Int

        init(access: AccessScope, foldedSearch: String, scope: C.CountScope) {
            self.access = access
            self.foldedSearch = foldedSearch
            self.scope = scope
            var hasher = Hasher()
            hasher.combine(access)
            hasher.combine(foldedSearch)
            hasher.combine(scope)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// A list's counts key as resolved at `at`, good until its count scope ends.
    struct ResolvedCountsKey {
        let key: CountsKey
        let at: Date
        let validUntil: Date
    }

    /// What a count scope is resolved from: the list's scope and display.
    struct CountScopeKey: Hashable {
        let scope: C.Scope
        let display: DisplayContext
    }

    /// A count scope, resolved at `at`, good until `validUntil`.
    struct ResolvedCountScope {
        let scope: C.CountScope
        let at: Date
        let validUntil: Date
    }

    /// The count scope of `criteria` at `now` (resolved once per scope and display while it holds).
    private func countScope(for criteria: ListCriteria<C>, now: Date) -> (C.CountScope, Date) {
        let key = CountScopeKey(scope: criteria.scope, display: criteria.display)
        if let known = countScopes.withLock({ $0[key] }), known.at <= now, now < known.validUntil { return (known.scope, known.validUntil) }
        let (scope, validUntil) = C.countScope(of: criteria.scope, display: criteria.display, now: now)
        countScopes.withLock { known in
            if known.count >= 1024 { known.removeAll() }
            known[key] = ResolvedCountScope(scope: scope, at: now, validUntil: validUntil)
        }
        return (scope, validUntil)
    }

    /// The counts of the list `criteria` names: shared if cached and fresh, else counted now.
    /// They are kept even when shared pages are off (cold benchmarks): what a write keeps
    /// current is never counted again, so only a search not seen lately is counted, from its
    /// matches.
    func counts(for criteria: ListCriteria<C>) -> ListCounts {
        let now = self.now
        return counts(for: countsKey(for: criteria, now: now), now: now)
    }

    /// The counts of a live list, whose key `resolved` keeps while its count scope holds (a
    /// hundred lists look theirs up on every change; resolving each key hashes a display).
    func counts(for criteria: ListCriteria<C>, resolved: inout ResolvedCountsKey?) -> ListCounts {
        let now = self.now
        if let known = resolved, known.at <= now, now < known.validUntil { return counts(for: known, now: now) }
        let key = countsKey(for: criteria, now: now)
        resolved = key
        return counts(for: key, now: now)
    }

    private func countsKey(for criteria: ListCriteria<C>, now: Date) -> ResolvedCountsKey {
        let (scope, scopeEnd) = countScope(for: criteria, now: now)
        return ResolvedCountsKey(
            key: CountsKey(access: criteria.access, foldedSearch: criteria.foldedSearch, scope: scope), at: now, validUntil: scopeEnd)
    }

    /// The counts `resolved` names: cached if fresh, else counted now.
    private func counts(for resolved: ResolvedCountsKey, now: Date) -> ListCounts {
        let (key, scope, scopeEnd) = (resolved.key, resolved.key.scope, resolved.validUntil)
        if let cached = countsCache.withLock({ $0[key] }), cached.isFresh(now: now) { return cached }
        let state = self.state
        var values = [Int](repeating: 0, count: C.countNames.count)
        var validUntil = scopeEnd
        let version: UInt64
        let views = C.countedViews(in: scope)
        if case .everything = key.access, case let every = views.compactMap({ $0 }), every.count == views.count {
            // Every count is a view's: popcounts of bits the state keeps, no item visited.
            (values, version) = state.countMembers(of: every, foldedSearch: key.foldedSearch)
        } else {
            version = state.forEachFilterFields(access: key.access, foldedSearch: key.foldedSearch) { fields in
                Self.add(C.allCountBits(of: fields, views: views, in: scope, at: now), by: 1, to: &values)
                if let expiry = C.countBitsExpiry(of: fields, in: scope, at: now) { validUntil = min(validUntil, expiry) }
            }
        }
        let counts = ListCounts(values: values, version: version, takenAt: now, validUntil: validUntil)
        countsCache.withLock { cache in
            // A change applied since the count would not have updated it: do not keep it, and
            // let a page made from it go stale at once (as an uncached result's does).
            guard state.version == version, self.state === state else {
                counts.token.revoke()
                return
            }
            cache[key]?.token.revoke()
            for evicted in cache.insert(key, counts, cost: 1) { evicted.value.token.revoke() }
        }
        return counts
    }

    /// The most searches, accesses and count scopes whose counts are kept.
    static var countsCapacity: Int { 256 }

    /// One changed item as the counts read it: owner, folded text and filter fields, found once
    /// however many counts are kept.
    private struct CountedItem {
        let owner: OwnerID
        let foldedText: [String]
        let fields: C.FilterFields

        init(_ item: C.Item) {
            owner = C.owner(of: item)
            foldedText = C.searchableText(of: item).map(TextFolding.fold)
            fields = C.filterFields(of: item)
        }

        func isCounted(under key: CountsKey) -> Bool {
            key.access.admits(owner) && TextFolding.search(key.foldedSearch, findsIn: foldedText)
        }
    }

    /// After a change: each cached count it alters is replaced (the items that were and are
    /// counted, their bits before and after), the rest keep their tokens.
    func updateCounts(_ effects: [CollectionState<C>.Effect], version: UInt64) {
        let changed = effects.map { (old: $0.old.map(CountedItem.init), new: $0.new.map(CountedItem.init)) }
        countsCache.withLock { cache in
            cache.updateValues { key, counts in
                guard counts.version < version else { return nil }  // counted after the change
                var values = counts.values
                var validUntil = counts.validUntil
                let views = C.countedViews(in: key.scope)
                for effect in changed {
                    if let old = effect.old, old.isCounted(under: key) {
                        Self.add(C.allCountBits(of: old.fields, views: views, in: key.scope, at: counts.takenAt), by: -1, to: &values)
                    }
                    if let new = effect.new, new.isCounted(under: key) {
                        Self.add(C.allCountBits(of: new.fields, views: views, in: key.scope, at: counts.takenAt), by: 1, to: &values)
                        if let expiry = C.countBitsExpiry(of: new.fields, in: key.scope, at: counts.takenAt) {
                            validUntil = min(validUntil, expiry)
                        }
                    }
                }
                guard values != counts.values || validUntil != counts.validUntil else {
                    return ListCounts(
                        values: values, version: version, takenAt: counts.takenAt, validUntil: validUntil, token: counts.token)
                }
                counts.token.revoke()
                return ListCounts(values: values, version: version, takenAt: counts.takenAt, validUntil: validUntil)
            }
        }
    }

    /// Every count is stale (the items were replaced).
    func dropCounts() {
        countsCache.withLock { cache in
            cache.updateValues { _, counts in
                counts.token.revoke()
                return nil
            }
            cache = LRUCache(capacity: cache.capacity)
        }
    }

    private static func add(_ bits: UInt32, by step: Int, to values: inout [Int]) {
        var bits = bits
        while bits != 0 {
            values[bits.trailingZeroBitCount] += step
            bits &= bits - 1
        }
    }

    /// `"counts":{…},"formattedCounts":{…}`: the members a page carries, numbers formatted
    /// for `display` ("2.987" in German; once per counts and locale, however many lists show
    /// them); with `changedSince`, only the counts that differ from those (a live delta's).
    func countsMembers(_ counts: ListCounts, display: DisplayContext, changedSince previous: [Int]? = nil) -> [UInt8] {
        Self.countsMembers(values: counts.values, texts: countTexts(counts, display: display), changedSince: previous)
    }

    /// One count formatted for `display`'s locale ("1,370"; "1.370" in German): a list's
    /// `formattedTotal`, written as its counts are.
    func countText(_ value: Int, display: DisplayContext) -> String {
        formatters.counts([value], display: display).first ?? String(value)
    }

    /// The counts' values formatted for `display`'s locale (once per counts and locale).
    func countTexts(_ counts: ListCounts, display: DisplayContext) -> [String] {
        counts.formatted(for: display.localeTag) { formatters.counts($0, display: display) }
    }

    /// The members of counts whose values and texts are known (see `countsMembers(_:display:changedSince:)`).
    static func countsMembers(values: [Int], texts: [String], changedSince previous: [Int]? = nil) -> [UInt8] {
        let shown = values.indices.filter { previous?[$0] != values[$0] }
        var json = JSONWriter(reservingCapacity: 256)  // members, not an object: no braces to strip after
        json.key("counts")
        json.beginObject()
        for index in shown {
            json.key(C.countNames[index])
            json.int(values[index])
        }
        json.endObject()
        json.key("formattedCounts")
        json.beginObject()
        for index in shown {
            json.key(C.countNames[index])
            json.string(texts[index])
        }
        json.endObject()
        return json.bytes
    }
}
