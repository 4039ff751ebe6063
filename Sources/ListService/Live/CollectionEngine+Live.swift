import Foundation

/// What live lists read from the engine: a window's rows with their identities, formatted
/// only where asked, from the same shared (patched) results and the same row writer as pages.
extension CollectionEngine {
    /// A window as it is now: each row's identity (which says whether a row formatted
    /// earlier is still right), the total and the cursor of the next page.
    struct LiveWindow {
        /// Its rows' identities, in order (not generic, so a refresh's loops over them run as
        /// compiled for this type rather than through the collection's metadata).
        let rows: [LiveWindowRow]
        /// Its rows' items, in the same order.
        let items: [C.Item]
        /// The whole list's sections, in a grouped list.
        let sections: ListSections?
        let total: Int
        /// The rank of its first row in the whole list.
        let index: Int
        /// Whether rows follow the window (then `nextCursor` names its last row).
        let hasMore: Bool
        /// The collection state read (a bulk change swaps it, and slots then mean other items).
        let state: ObjectIdentifier
        /// The state's log position when read: the same window at the same position on every replica.
        let position: UInt64
    }

    /// The window `criteria` names now, as `memo` holds it when it was read at the state's
    /// current version (lists that differ only in locale and zone share one window: a write
    /// that enters a hundred of them reads it once per round); nil when its cursor no longer fits.
    func liveWindow(_ criteria: ListCriteria<C>, key: LiveWindowKey, memo: inout [LiveWindowKey: LiveWindowMemo<C>]) -> LiveWindow? {
        let state = self.state
        let version = state.version
        if let known = memo[key], known.state == ObjectIdentifier(state), known.version == version { return known.window }
        let window = try? liveWindow(criteria)
        // Kept only if no change landed while it was read (versions only grow).
        if state.version == version, self.state === state {
            memo[key] = LiveWindowMemo(state: ObjectIdentifier(state), version: version, window: window)
        }
        return window
    }

    /// The window `criteria` names now; a cursor that no longer fits, or an `around` item the
    /// list no longer holds, is the page's error.
    func liveWindow(_ criteria: ListCriteria<C>) throws(ListServiceError) -> LiveWindow {
        let (result, _) = sortedResult(for: criteria)
        let state = self.state
        let (contents, sections) = try contentsAndSections(of: result, criteria: criteria, now: now)
        let rowSections = sections?.rowSections(from: contents.index, count: contents.items.count) ?? []
        let versions = criteria.purpose == .map ? [] : contents.versions()
        var rows: [LiveWindowRow] = []
        rows.reserveCapacity(contents.items.count)
        for index in contents.items.indices {
            rows.append(
                LiveWindowRow(
                    id: C.id(of: contents.items[index]), slot: contents.slots[index], revision: contents.revisions[index],
                    version: versions.isEmpty ? 0 : versions[index],
                    section: rowSections.isEmpty ? nil : sections?.sections[rowSections[index]]))
        }
        return LiveWindow(
            rows: rows, items: contents.items, sections: sections, total: contents.total, index: contents.index, hasMore: contents.hasMore,
            state: ObjectIdentifier(state), position: contents.logPosition)
    }

    /// Rows (or markers) exactly as a page of `criteria` writes them, one byte array each,
    /// for the window's rows at `indices`, and the earliest instant one of them goes stale.
    func liveRows(_ window: LiveWindow, at indices: [Int], criteria: ListCriteria<C>, now: Date) -> (rows: [[UInt8]], expiry: Date?) {
        guard !indices.isEmpty else { return ([], nil) }
        var bounds: [Int] = []
        let (bytes, expiry) = writeRows(display: criteria.display, access: criteria.access, now: now) { context, json in
            var expiry: Date?
            for index in indices {
                let row = window.rows[index]
                let rowExpiry = Self.writeListRow(
                    window.items[index], version: row.version, purpose: criteria.purpose, sectionMember: row.section?.rowMember,
                    in: &context, to: &json)
                bounds.append(json.bytes.count)
                if let rowExpiry { expiry = min(expiry ?? rowExpiry, rowExpiry) }
            }
            return expiry
        }
        metrics.increment(.rowsFormatted, by: indices.count)
        // Rows after the first follow a comma the writer put between them.
        var rows: [[UInt8]] = []
        var start = 0
        for end in bounds {
            rows.append(Array(bytes[(bytes[start] == UInt8(ascii: ",") ? start + 1 : start)..<end]))
            start = end
        }
        return (rows, expiry)
    }

    /// Whether `item` is among the items the counts of `criteria`'s list count (its access and search).
    func countsInclude(_ item: C.Item, criteria: ListCriteria<C>) -> Bool {
        criteria.access.admits(C.owner(of: item)) && ListDefinition<C>.search(criteria.foldedSearch, finds: item)
    }

    /// Whether `item` belongs to the list `criteria` names (its filter, scope and search).
    func listIncludes(_ item: C.Item, criteria: ListCriteria<C>) -> Bool {
        criteria.definition.includes(item)
    }
}
