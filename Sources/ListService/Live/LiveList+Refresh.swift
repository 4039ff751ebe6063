import Basics
import Foundation
import Synchronization

/// Bringing a live list up to date after a change: its window, rows, counts and sections,
/// and the delta (or reset) that says what changed.
extension LiveList {
    /// Marks a refresh as queued; false when one already was (the caller then queues none).
    func queueRefresh() -> Bool { !isRefreshQueued.exchange(true, ordering: .acquiringAndReleasing) }

    /// Brings the window up to date and sends what changed: a delta, a `reset` when too much
    /// changed at once, or nothing. `at` is the commit time. `criteria` replaces the list's
    /// (time-relative criteria expired); `reformat` formats every row again (time passed, so
    /// labels may read differently).
    func refresh(
        engine: CollectionEngine<C>, at: Date, memo: inout RowMemo, windows: inout WindowMemo, criteria newCriteria: ListCriteria<C>? = nil,
        reformat: Bool = false
    ) {
        isRefreshQueued.store(false, ordering: .releasing)  // changes from here on queue another
        current.withLock { current in
            if let newCriteria {
                current.criteria = newCriteria
                current.criteriaJSON = engine.criteriaJSON(newCriteria)
            }
            let criteria = current.criteria
            let window =
                engine.liveWindow(criteria, key: current.windowKey, memo: &windows)
                ?? CollectionEngine<C>.LiveWindow(
                    rows: [], items: [], sections: nil, total: 0, index: 0, hasMore: false, state: current.state,
                    position: engine.state.position)
            let last = window.hasMore ? window.rows.indices.last : nil
            let cursorRow = last.map { RowIdentity(slot: window.rows[$0].slot, revision: window.rows[$0].revision) }
            let nextCursor =
                cursorRow == current.cursorRow && newCriteria == nil && window.state == current.state
                ? current.nextCursor
                : last.map {
                    Self.nextCursor(after: $0, of: window, criteria: criteria, engine: engine, key: current.windowKey, windows: &windows)
                }
            let isSwapped = window.state != current.state
            let previous = LivePreviousRows(current.rows)
            let (rows, expiry) = rows(
                of: window, before: reformat || isSwapped ? nil : previous, criteria: criteria, usesMemo: !reformat, engine: engine,
                memo: &memo)
            // Rows whose content changed (updates) and rows new to the window (inserts): what a delta carries.
            var changed = Set<String>()
            var sentRows: [String: [UInt8]] = [:]
            for index in rows.indices {
                let id = rows[index].id
                if let before = previous.bytes(id: id, slot: rows[index].slot, at: index) {
                    guard before != rows[index].bytes else { continue }
                    changed.insert(id)
                }
                sentRows[id] = rows[index].bytes
            }
            let counts = engine.counts(for: criteria, resolved: &current.countsKey)
            current.countsValidUntil = counts.validUntil
            var changedCounts: [UInt8]?
            if counts.values != current.counts {
                let change = Self.countsChange(
                    to: counts, from: current.counts, display: criteria.display, engine: engine, key: current.windowKey, windows: &windows)
                changedCounts = change.members
                current.counts = counts.values
                current.countTexts = change.texts
            }
            let changedSections = window.sections.flatMap { $0.deltaMembers(since: current.sections) }
            if let sections = window.sections { current.sections = sections }
            let ops = Self.ops(
                from: current.rows.map(\.id), to: rows.map(\.id), changed: changed, key: current.windowKey, windows: &windows)
            let isTotalChanged = window.total != current.total, isCursorChanged = nextCursor != current.nextCursor
            let position = Self.position(of: window, purpose: purpose)
            let isPositionChanged = position != current.position
            // Every row formatted now: their expiry is the window's; some: the earlier of theirs and the rest's.
            if reformat {
                current.rowsExpiry = expiry
            } else if let expiry {
                current.rowsExpiry = min(expiry, current.rowsExpiry ?? expiry)
            }
            guard
                !ops.isEmpty || isTotalChanged || isCursorChanged || isPositionChanged || isSwapped || changedCounts != nil
                    || changedSections != nil
            else {
                current.rows = rows
                return
            }
            let base = current.v
            current.rows = rows
            if isTotalChanged { current.totalText = engine.countText(window.total, display: criteria.display) }
            current.total = window.total
            current.position = position
            current.nextCursor = nextCursor
            current.cursorRow = cursorRow
            current.windowEnd = last.map { Self.sortPosition(of: window, at: $0, criteria: criteria) }
            current.state = window.state
            current.v = hub.version(after: current.v, at: window.position)
            current.snapshot = nil
            let burstLimit = max(4, (purpose == .map ? max(rows.count, previous.count) : criteria.limit) / 2)
            if isSwapped || ops.count > burstLimit {
                current.ring.removeAll()  // a reset cannot be replayed as ops
                hub.metrics.countReset(.burst)
                for stream in current.streams where !stream.isSlow.load(ordering: .relaxed) {
                    let reset = event("reset", reason: .burst, for: stream, &current)
                    stream.subscriber.send(reset)
                    hub.metrics.count(.reset, streams: 1, bytes: reset.count)
                }
                current.lastEvent = .now
                return
            }
            let delta = LiveEvent.encode(
                "delta", token: LiveToken(epoch: epoch, v: current.v),
                data: Self.deltaBody(
                    v: current.v, base: base, at: at, total: window.total, formattedTotal: current.totalText,
                    nextCursor: isCursorChanged ? .some(nextCursor) : nil,
                    position: isPositionChanged ? position : nil, counts: changedCounts, sections: changedSections, ops: ops,
                    sentRows: sentRows))
            current.ring.append((base, delta))
            if current.ring.count > hub.configuration.replayEvents {
                current.ring.removeFirst(current.ring.count - hub.configuration.replayEvents)
            }
            send(delta, kind: .delta, committedAt: at, &current)
        }
    }

    /// The window's rows: as formatted before where their item is unchanged since (`before`, by slot),
    /// else as formatted earlier in this batch for the same display (`memo`), else formatted
    /// now and remembered; with the earliest instant a row formatted now goes stale.
    private func rows(
        of window: CollectionEngine<C>.LiveWindow, before: LivePreviousRows?, criteria: ListCriteria<C>, usesMemo: Bool,
        engine: CollectionEngine<C>, memo: inout RowMemo
    ) -> (rows: [Row], expiry: Date?) {
        var bytes = [[UInt8]?](repeating: nil, count: window.rows.count)
        var missing: [Int] = []
        for index in window.rows.indices {
            let entry = window.rows[index]
            if let unchanged = before?.unchangedBytes(of: entry, at: index) {
                bytes[index] = unchanged
            } else if usesMemo, let known = memo[rowKey(of: entry, criteria: criteria)] {
                bytes[index] = known
            } else {
                missing.append(index)
            }
        }
        let (formatted, expiry) = engine.liveRows(window, at: missing, criteria: criteria, now: engine.now)
        for (index, row) in zip(missing, formatted) {
            bytes[index] = row
            memo[rowKey(of: window.rows[index], criteria: criteria)] = row
        }
        var rows: [Row] = []
        rows.reserveCapacity(window.rows.count)
        for index in window.rows.indices {
            let entry = window.rows[index]
            rows.append(
                Row(id: entry.id, slot: entry.slot, revision: entry.revision, sectionKey: entry.sectionKey, bytes: bytes[index] ?? []))
        }
        return (rows, expiry)
    }

    /// The ops from `old` to `new`, as the round's memo of the window holds them when the
    /// same (lists sharing a window had the same rows before, most often), else found now.
    private static func ops(
        from old: [String], to new: [String], changed: Set<String>, key: LiveWindowKey, windows: inout WindowMemo
    ) -> [WindowOp] {
        if let known = windows[key]?.diff, known.old == old, known.new == new, known.changed == changed { return known.ops }
        let ops = WindowDiff.ops(from: old, to: new, changed: changed)
        windows[key]?.diff = LiveDiffMemo(old: old, new: new, changed: changed, ops: ops)
        return ops
    }

    /// The texts of `counts` in `display`'s locale and the members a delta writes for their
    /// change from `previous`, as the round's memo of the window holds them when the same
    /// (lists sharing the window in one locale), else made now.
    private static func countsChange(
        to counts: ListCounts, from previous: [Int], display: DisplayContext, engine: CollectionEngine<C>, key: LiveWindowKey,
        windows: inout WindowMemo
    ) -> (texts: [String], members: [UInt8]) {
        let values = counts.values
        if let known = windows[key]?.counts.first(where: {
            $0.values == values && $0.previous == previous && $0.localeTag == display.localeTag
        }) {
            return (known.texts, known.members)
        }
        let texts = engine.countTexts(counts, display: display)
        let members = CollectionEngine<C>.countsMembers(values: values, texts: texts, changedSince: previous)
        windows[key]?.counts.append(
            LiveCountsMemo(previous: previous, values: values, localeTag: display.localeTag, texts: texts, members: members))
        return (texts, members)
    }

    /// The cursor after the window's row at `index`, as the round's memo of the window holds it
    /// when made for that row in that state (lists sharing a window share it), else made now.
    private static func nextCursor(
        after index: Int, of window: CollectionEngine<C>.LiveWindow, criteria: ListCriteria<C>, engine: CollectionEngine<C>,
        key: LiveWindowKey, windows: inout WindowMemo
    ) -> String {
        let row = RowIdentity(slot: window.rows[index].slot, revision: window.rows[index].revision)
        if let memo = windows[key], memo.state == window.state, let known = memo.nextCursor, known.row == row { return known.cursor }
        let cursor = engine.nextCursor(after: window.items[index], criteria: criteria)
        if windows[key]?.state == window.state { windows[key]?.nextCursor = (row, cursor) }
        return cursor
    }

    /// What names a row's formatting within one batch.
    private func rowKey(of entry: LiveWindowRow, criteria: ListCriteria<C>) -> RowKey {
        RowKey(
            slot: entry.slot, revision: entry.revision, display: criteria.display, access: criteria.access, purpose: purpose,
            sectionKey: entry.sectionKey)
    }

    /// Where the window's row at `index` sorts.
    static func sortPosition(of window: CollectionEngine<C>.LiveWindow, at index: Int, criteria: ListCriteria<C>) -> LiveSortPosition {
        LiveSortPosition(key: C.sortKey(of: window.items[index], by: criteria.sort, in: criteria.collation), id: window.rows[index].id)
    }

    /// Where a list's window sits; a map's window is its whole list.
    static func position(of window: CollectionEngine<C>.LiveWindow, purpose: ListPurpose) -> PagePosition? {
        purpose == .list ? PagePosition(index: window.index, rows: window.rows.count, total: window.total) : nil
    }

    /// A slow stream drained: it gets the window as it is now, then events again.
    func recover(_ stream: LiveStream) {
        current.withLock { current in
            guard stream.subscriber.isOpen, stream.isSlow.load(ordering: .relaxed) else { return }
            stream.isSlow.store(false, ordering: .relaxed)
            let reset = event("reset", reason: .slow, for: stream, &current)
            stream.subscriber.send(reset)
            hub.metrics.countReset(.slow)
            hub.metrics.count(.reset, streams: 1, bytes: reset.count)
        }
    }
}
