import Foundation

/// How the engine follows changes: each cached list that held or now holds a changed item is
/// patched in place; a bulk change rebuilds beside the old state.
extension CollectionEngine {
    /// Changes past which rebuilding beats patching (an import of a whole feed).
    static var bulkChangeThreshold: Int { 512 }

    /// Applies changes to the items, then patches every cached list that held or now holds a
    /// changed item; other lists keep their results, pages and ETags. A bulk change builds a
    /// new state beside the old one, which keeps serving reads until the swap. Changes come
    /// from one writer at a time (`WriteCoordinator`).
    ///
    /// Specialized for each collection: a write batch reaches this through an existential
    /// (`PendingCollectionChanges`), where generic code runs unspecialized, and everything a
    /// change sets off runs under it (patching lists, counts, every live list's refresh). A
    /// collection not listed runs the generic code. Keep in step with `CollectionRegistry`.
    @_specialize(where C == Orders)
    @_specialize(where C == Tasks)
    @_specialize(where C == Quakes)
    @_specialize(where C == Users)
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
        updateCounts(effects, version: version)
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
        let order = CollectionState<C>.OrderKey(key)
        state.withItemLookup { current in
            // Where each item sits now: touched ones by their value before the batch.
            func placed(_ slot: Int32) -> C.Item? { touched.contains(slot) ? (before[slot] ?? nil) : current(slot) }
            for slot in touched {
                guard let old = before[slot] ?? nil, key.includes(old) else { continue }
                let sortKey = C.sortKey(of: old, by: key.sort, in: key.collation), id = C.id(of: old)
                let point = patched.partitionPoint {
                    CollectionState<C>.sorts($0, after: sortKey, id: id, in: order, direction: key.direction, item: placed)
                }
                if !patched.remove(slot, before: point) { patched.removeScanning(slot) }
            }
            for slot in touched {
                guard let item = current(slot), key.includes(item) else { continue }
                let sortKey = C.sortKey(of: item, by: key.sort, in: key.collation), id = C.id(of: item)
                patched.insert(
                    slot,
                    at: patched.partitionPoint {
                        CollectionState<C>.sorts($0, after: sortKey, id: id, in: order, direction: key.direction, item: current)
                    })
            }
        }
        return patched
    }

    /// An item's detail for `display` and a reader of `access`, formatted now and not cached
    /// (for `If-Match` on items a write batch has already changed).
    package func formattedRow(_ item: C.Item, display: DisplayContext, access: AccessScope) -> ListPage {
        let itemVersion = version(of: item)
        let (body, expiry) = writeRows(display: display, access: access, now: now) { context, json in
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
        ETag.hex(ItemVersions<C>.digest(of: item))
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
        dropCounts()
        live.replacedAll(engine: self)
    }
}
