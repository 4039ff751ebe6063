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
    let hub: LiveHub
    let current: Locked<Current>

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
    let isRefreshQueued = Atomic<Bool>(false)
    /// When its refreshes are due (events at least the pacing's interval apart).
    let schedule = LiveSchedule()

    struct Current {
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
                windowEnd: last.map { Self.sortPosition(of: window, at: $0, criteria: criteria) }, state: window.state,
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
                    old: effect.old.map {
                        LiveSortPosition(key: C.sortKey(of: $0, by: criteria.sort, in: criteria.collation), id: C.id(of: $0))
                    },
                    new: effect.new.map {
                        LiveSortPosition(key: C.sortKey(of: $0, by: criteria.sort, in: criteria.collation), id: C.id(of: $0))
                    })
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

    func dropClosedStreams(_ current: inout Current) {
        // Every event passes here: the streams are rewritten only when one has closed.
        guard current.streams.contains(where: { !$0.subscriber.isOpen }) else { return }
        current.streams.removeAll { stream in
            guard !stream.subscriber.isOpen else { return false }
            stream.reservation.release()
            return true
        }
    }
}
