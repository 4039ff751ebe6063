import Basics
import Dispatch
import Synchronization
import Foundation

/// One watched list: a window of formatted rows kept in step with the data, shared by every
/// stream with the same criteria, window, locale and zone. A change reformats only the rows
/// it touched (once per locale and zone, however many lists hold them), turns the difference
/// into positioned ops, encodes them once and hands the bytes to every stream. Recent events
/// are kept for replay. All changes to it run on the hub's queue, in commit order; a stream
/// joins under the same lock, so no event can fall between its snapshot and its first delta.
final class LiveList<C: ListCollection>: Sendable {
    /// What clients asked for (re-read when time-relative criteria expire).
    let request: ListRequest
    let purpose: ListPurpose
    /// Its locale and zone, which pick its executor.
    let display: DisplayContext
    /// Picks the hub's executor it is brought up to date on (its display's hash, taken once).
    let executorSeed: UInt
    private let hub: LiveHub
    private let current: Locked<Current>

    // Kept outside the generic class: types nested in it would have their metadata made
    // and looked up at run time on every refresh.
    typealias Row = LiveRow
    typealias RowIdentity = LiveRowIdentity
    typealias RowKey = LiveRowKey
    typealias RowMemo = LiveRowMemo
    typealias EffectFacts = LiveEffectFacts
    typealias FactsMemo = LiveFactsMemo
    typealias WindowMemo = [LiveWindowKey: LiveWindowMemo<C>]
    /// A refresh is queued: later changes need not queue another, since a refresh reads the
    /// state as it is when it runs (under load, consecutive batches then share one event).
    private let isRefreshQueued = Atomic<Bool>(false)
    /// When its refreshes are due (events at least the pacing's interval apart).
    let schedule = LiveSchedule()

    private struct Current {
        var criteria: ListCriteria<C> {
            didSet {
                windowKey = LiveWindowKey(criteria)
                countsKey = nil
            }
        }
        /// What lists sharing this one's window share (all but the display).
        var windowKey: LiveWindowKey
        var criteriaJSON: [UInt8]
        var rows: [Row]
        var total: Int
        /// The total as the list's locale writes it.
        var totalText: String
        /// Where the window sits in the whole list (lists only; a map is the whole list).
        var position: PagePosition?
        var nextCursor: String?
        /// The row `nextCursor` was made from (its slot and revision), so it is made again only when that changes.
        var cursorRow: RowIdentity?
        /// The last row's sort key and id when rows follow the window: a change wholly after
        /// it (that neither adds nor removes an item) cannot alter the window.
        var windowEnd: LiveSortPosition?
        var state: ObjectIdentifier
        var v: UInt64
        /// When a row's text goes stale by itself ("due tomorrow" becomes "due today").
        var rowsExpiry: Date?
        /// Recent deltas, oldest first: each with the version it applies to.
        var ring: [(base: UInt64, bytes: [UInt8])] = []
        var streams: [LiveStream] = []
        var lastEvent: ContinuousClock.Instant = .now
        var unwatchedSince: ContinuousClock.Instant?
        /// Its counts' numbers, their text in its locale (a snapshot writes the members from
        /// both), and when they go stale by themselves (a new month, a task falling due).
        var counts: [Int]
        var countTexts: [String]
        var countsValidUntil: Date
        /// Its counts' key while its count scope holds.
        var countsKey: CollectionEngine<C>.ResolvedCountsKey?
        /// A grouped list's sections as last sent.
        var sections: ListSections?
        /// The snapshot body of version `v` (without a session's selection), made on first need.
        var snapshot: (v: UInt64, bytes: [UInt8])?
    }

    /// What this list's event ids begin with: the hub's epoch, and for an owner's list a tag
    /// of the owner, so that an id from another scope's list is known for one.
    let epoch: String

    /// The hub's epoch for a list of every item; for an owner's, with `~` and eight hex digits
    /// of the owner's digest.
    static func epoch(of access: AccessScope, hub: LiveHub) -> String {
        guard case .owner = access else { return hub.epoch }
        return hub.epoch + "~" + ETag.hexDigest(access.description.utf8).prefix(8)
    }

    /// Computes the window and formats its rows.
    init(criteria: ListCriteria<C>, request: ListRequest, purpose: ListPurpose, engine: CollectionEngine<C>, hub: LiveHub)
        throws(ListServiceError)
    {
        let window = try engine.liveWindow(criteria)
        let (rows, expiry) = engine.liveRows(window, at: Array(window.rows.indices), criteria: criteria, now: engine.now)
        let last = window.hasMore ? window.rows.indices.last : nil
        let counts = engine.counts(for: criteria)
        self.request = request
        self.purpose = purpose
        self.display = criteria.display
        executorSeed = UInt(bitPattern: criteria.display.hashValue)
        self.hub = hub
        epoch = Self.epoch(of: criteria.access, hub: hub)
        current = Locked(
            Current(
                criteria: criteria, windowKey: LiveWindowKey(criteria), criteriaJSON: engine.criteriaJSON(criteria),
                rows: zip(window.rows, rows).map {
                    Row(id: $0.id, slot: $0.slot, revision: $0.revision, sectionKey: $0.sectionKey, bytes: $1)
                },
                total: window.total, totalText: engine.countText(window.total, display: criteria.display),
                position: Self.position(of: window, purpose: purpose),
                nextCursor: last.map { engine.nextCursor(after: window.items[$0], criteria: criteria) },
                cursorRow: last.map { RowIdentity(slot: window.rows[$0].slot, revision: window.rows[$0].revision) },
                windowEnd: last.map { Self.sortPosition(of: window, at: $0, sort: criteria.sort) }, state: window.state,
                v: hub.version(after: nil, at: window.position),
                rowsExpiry: expiry, counts: counts.values, countTexts: engine.countTexts(counts, display: criteria.display),
                countsValidUntil: counts.validUntil, sections: window.sections))
    }

    var criteria: ListCriteria<C> { current.withLock { $0.criteria } }

    /// When the window goes stale by itself: its criteria's end (month, day), a row's, its counts' or its sections'.
    var validUntil: Date {
        current.withLock {
            min($0.criteria.validUntil, $0.rowsExpiry ?? .distantFuture, $0.countsValidUntil, $0.sections?.validUntil ?? .distantFuture)
        }
    }

    /// Whether a change of these items can alter the window or the total: one that adds an
    /// item to the list or takes one out, or one whose item sorts, before or after, at or
    /// above the window's last row. (A later refresh reads the state as it is then, so a
    /// window end that lags a queued refresh loses nothing.)
    func isTouched(by effects: [CollectionState<C>.Effect], engine: CollectionEngine<C>, memo: inout FactsMemo) -> Bool {
        let (criteria, end) = current.withLock { ($0.criteria, $0.windowEnd) }
        let facts: [EffectFacts]
        if let known = memo[criteria.fingerprint] {
            facts = known
        } else {
            facts = effects.map { effect in
                EffectFacts(
                    isCounted: [effect.old, effect.new].contains { $0.map { engine.countsInclude($0, criteria: criteria) } ?? false },
                    wasIn: effect.old.map { engine.listIncludes($0, criteria: criteria) } ?? false,
                    isIn: effect.new.map { engine.listIncludes($0, criteria: criteria) } ?? false,
                    old: effect.old.map { LiveSortPosition(key: C.sortKey(of: $0, by: criteria.sort), id: C.id(of: $0)) },
                    new: effect.new.map { LiveSortPosition(key: C.sortKey(of: $0, by: criteria.sort), id: C.id(of: $0)) })
            }
            memo[criteria.fingerprint] = facts
        }
        func sortsAfterEnd(_ position: LiveSortPosition) -> Bool {
            end.map { criteria.direction.places(position.key, position.id, after: $0.key, $0.id) } ?? false
        }
        return facts.contains { fact in
            if fact.isCounted { return true }  // the list's counts may change
            guard fact.wasIn || fact.isIn else { return false }
            if criteria.group != nil { return true }  // a section's count or summary changes, wherever the item sits
            guard fact.wasIn == fact.isIn, let old = fact.old, let new = fact.new else { return true }  // the total changes
            return !(sortsAfterEnd(old) && sortsAfterEnd(new))
        }
    }

    // MARK: joining

    /// Where a reconnecting client says it was.
    enum Resume {
        /// A new client: it gets a snapshot.
        case none
        /// `Last-Event-ID` (nil: not a token this server gives).
        case after(LiveToken?)
    }

    /// Adds a stream: sends `retry:`, then the snapshot, the events it missed, or a `reset`;
    /// `isNew`: the list was made for this stream, so it holds no history.
    func join(_ stream: LiveStream, resume: Resume, isNew: Bool) {
        current.withLock { current in
            var out = hub.retryLine()
            var kind = LiveMetrics.EventKind.snapshot
            switch resume {
            case .none:
                out += event("snapshot", reason: nil, for: stream, &current)
            case .after(let token):
                let reason: ResetReason?
                if let token, token.epoch == epoch {
                    if token.v == current.v && (!isNew || hub.isShared) {
                        reason = nil  // up to date: nothing to send (on a replica: made here at the position the token names)
                    } else if isNew {
                        reason = .expired
                    } else if let first = current.ring.firstIndex(where: { $0.base == token.v }) {
                        reason = nil
                        for entry in current.ring[first...] { out += entry.bytes }
                        hub.metrics.replays.add(1, ordering: .relaxed)
                    } else {
                        reason = .gap
                    }
                } else {
                    let isOtherScope = token.map { $0.epoch.split(separator: "~").first.map(String.init) == hub.epoch } ?? false
                    reason = token == nil ? .gap : isOtherScope ? .scope : .restart
                }
                if let reason {
                    out += event("reset", reason: reason, for: stream, &current)
                    hub.metrics.countReset(reason)
                } else if C.sharesSelection, let session = stream.session {
                    out += Self.selectionEvent(session.selection(in: C.name))  // it may have changed while the client was away
                }
                kind = reason == nil ? .delta : .reset
            }
            stream.subscriber.send(out)
            hub.metrics.count(kind, streams: 1, bytes: out.count)
            current.streams.append(stream)
            current.unwatchedSince = nil
        }
    }

    // MARK: changing

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
            current.windowEnd = last.map { Self.sortPosition(of: window, at: $0, sort: criteria.sort) }
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
    private static func sortPosition(of window: CollectionEngine<C>.LiveWindow, at index: Int, sort: C.SortField) -> LiveSortPosition {
        LiveSortPosition(key: C.sortKey(of: window.items[index], by: sort), id: window.rows[index].id)
    }

    /// Where a list's window sits; a map's window is its whole list.
    private static func position(of window: CollectionEngine<C>.LiveWindow, purpose: ListPurpose) -> PagePosition? {
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

    // MARK: upkeep

    /// Drops streams whose clients left, sends a heartbeat after a quiet spell; true when no
    /// one has watched the list for the linger time (the caller then drops it).
    func sweep(now: ContinuousClock.Instant) -> Bool {
        current.withLock { current in
            dropClosedStreams(&current)
            if current.streams.isEmpty {
                let since = current.unwatchedSince ?? now
                current.unwatchedSince = since
                return now - since >= hub.configuration.linger
            }
            if now - current.lastEvent >= hub.configuration.heartbeat {
                send(LiveEvent.heartbeat, kind: .heartbeat, committedAt: nil, &current)
            }
            return false
        }
    }

    /// Ends every stream with a jittered `retry:` (shutdown).
    func stop() {
        current.withLock { current in
            for stream in current.streams {
                stream.subscriber.send(hub.retryLine())
                stream.subscriber.finish()
                stream.reservation.release()
            }
            current.streams.removeAll()
        }
    }

    /// Whether a stream still watches the list.
    var isWatched: Bool {
        current.withLock { current in
            dropClosedStreams(&current)
            return !current.streams.isEmpty
        }
    }

    /// Drops the streams whose clients left, giving back their places.
    func dropClosedStreams() { current.withLock { dropClosedStreams(&$0) } }

    private func dropClosedStreams(_ current: inout Current) {
        // Every event passes here: the streams are rewritten only when one has closed.
        guard current.streams.contains(where: { !$0.subscriber.isOpen }) else { return }
        current.streams.removeAll { stream in
            guard !stream.subscriber.isOpen else { return false }
            stream.reservation.release()
            return true
        }
    }

    // MARK: sending

    /// Sends `session`'s selection to its streams of this list (a `selection` event), where
    /// the collection shares one. Read under the lock, so whichever of two quick selections
    /// is sent last says the one the session kept; a stream skipping events for being slow
    /// gets it in its `reset`.
    func sendSelection(to session: Session) {
        guard C.sharesSelection else { return }
        current.withLock { current in
            dropClosedStreams(&current)
            let streams = current.streams.filter { $0.session === session && !$0.isSlow.load(ordering: .relaxed) }
            guard !streams.isEmpty else { return }
            let event = Self.selectionEvent(session.selection(in: C.name))
            for stream in streams { stream.subscriber.send(event) }
            hub.metrics.count(.selection, streams: streams.count, bytes: event.count)
        }
    }

    /// `event: selection`, `data: {"selectedId": …}`, without an id: it changes no version,
    /// so a client resuming after it resumes from the list's last delta.
    private static func selectionEvent(_ id: String?) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 48)
        json.beginObject()
        json.field("selectedId", id)
        json.endObject()
        return LiveEvent.encode("selection", id: nil, data: json.bytes)
    }

    /// Hands `bytes` to every stream keeping up; a stream past the unsent limit is skipped
    /// from now on and gets a `reset` once it drains.
    private func send(_ bytes: [UInt8], kind: LiveMetrics.EventKind, committedAt: Date?, _ current: inout Current) {
        dropClosedStreams(&current)
        var targets: [any LiveSubscriber] = []
        targets.reserveCapacity(current.streams.count)
        for stream in current.streams where !stream.isSlow.load(ordering: .relaxed) {
            if stream.subscriber.unsentBytes > hub.configuration.maxUnsentBytes {
                stream.isSlow.store(true, ordering: .relaxed)
                stream.subscriber.whenDrained { [weak self, hub, executorSeed] in
                    hub.run(forListsOf: executorSeed) { [weak self] in self?.recover(stream) }
                }
                continue
            }
            targets.append(stream.subscriber)
        }
        hub.metrics.count(kind, streams: targets.count, bytes: bytes.count)
        hub.broadcast(bytes, to: targets) { [hub] in
            // Commit to written to the sockets: the server's own part of a change's latency.
            if let committedAt { hub.metrics.observeLatency(max(0, Date().timeIntervalSince(committedAt))) }
        }
        current.lastEvent = .now
    }

    /// A `snapshot` or `reset` event for `stream`: the list's page body, its version and, for
    /// a reset, the reason.
    private func event(_ name: StaticString, reason: ResetReason?, for stream: LiveStream, _ current: inout Current) -> [UInt8] {
        if current.snapshot?.v != current.v { current.snapshot = (current.v, snapshotBody(current)) }
        var body = current.snapshot?.bytes ?? []
        // The page's members, then the session's selection where the collection shares one, `v` and the reason.
        body.removeLast()
        var json = JSONWriter(reservingCapacity: 64)
        json.beginObject()
        if C.sharesSelection { json.field("selectedId", stream.session?.selection(in: C.name)) }
        json.key("v")
        json.int(Int(current.v))
        if let reason { json.field("reason", reason.rawValue) }
        json.endObject()
        body.append(UInt8(ascii: ","))
        body.append(contentsOf: json.bytes.dropFirst())
        return LiveEvent.encode(name, token: LiveToken(epoch: epoch, v: current.v), data: body)
    }

    /// The body a GET of the list returns (without a session's selection).
    private func snapshotBody(_ current: Current) -> [UInt8] {
        CollectionEngine<C>.pageBody(
            total: current.total, formattedTotal: current.totalText, nextCursor: current.nextCursor, purpose: purpose,
            position: current.position,
            counts: CollectionEngine<C>.countsMembers(values: current.counts, texts: current.countTexts), sections: current.sections,
            criteria: current.criteriaJSON, itemsBytes: current.rows.reduce(current.rows.count + 2) { $0 + $1.bytes.count }
        ) {
            json in
            json.beginArray()
            for row in current.rows { json.raw(row.bytes) }
            json.endArray()
        }
    }

    /// `{"v":…,"base":…,"at":…,"total":…,"formattedTotal":…,["nextCursor":…,]["index":…,"itemsBefore":…,"itemsAfter":…,]["counts":…,"formattedCounts":…,]`
    /// `["sections":…,]["removedSections":…,]"ops":[…]}`.
    private static func deltaBody(
        v: UInt64, base: UInt64, at: Date, total: Int, formattedTotal: String, nextCursor: String??, position: PagePosition?,
        counts: [UInt8]?, sections: [UInt8]?,
        ops: [WindowOp], sentRows: [String: [UInt8]]
    ) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256)
        json.beginObject()
        json.field("v", Int(v))
        json.field("base", Int(base))
        json.field("at", Int((at.timeIntervalSince1970 * 1000).rounded()))
        json.field("total", total)
        json.field("formattedTotal", formattedTotal)
        if let nextCursor { json.field("nextCursor", nextCursor) }
        if let position { position.write(to: &json) }
        if let counts { json.raw(counts) }
        if let sections { json.raw(sections) }
        json.key("ops")
        json.beginArray()
        for op in ops {
            json.beginObject()
            switch op {
            case .remove(let id, let index):
                json.field("op", "remove")
                json.field("id", id)
                json.field("index", index)
            case .move(let id, let from, let to):
                json.field("op", "move")
                json.field("id", id)
                json.field("from", from)
                json.field("to", to)
            case .insert(let id, let index):
                json.field("op", "insert")
                json.field("index", index)
                json.key("row")
                json.raw(sentRows[id] ?? Array("null".utf8))
            case .update(let id):
                json.field("op", "update")
                json.field("id", id)
                json.key("row")
                json.raw(sentRows[id] ?? Array("null".utf8))
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
