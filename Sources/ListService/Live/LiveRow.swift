/// The small records live lists keep and pass around, none of them generic.

/// A row as a window last saw it: its slot and revision.
struct LiveRowIdentity: Equatable {
    let slot: Int32
    let revision: UInt32
}

/// A row of a window as the engine read it: which item, at which revision and version, and
/// in a grouped list its section.
struct LiveWindowRow {
    let id: String
    let slot: Int32
    let revision: UInt32
    let version: UInt64
    let section: ListSections.Section?

    var sectionKey: String? { section?.key }
}

/// A window's rows as last sent, found by slot (stable for an item within a state); a row its
/// slot does not find (a new one, an item deleted and made again, every row after a swap) by
/// id. A short window is searched along its slots (cheaper than hashing twenty of them into a
/// dictionary each refresh); a long one (a map's) is indexed on first use, once per refresh
/// however many look-ups share it (hence a class).
final class LivePreviousRows {
    private let rows: [LiveRow]
    private let slots: [Int32]
    private var bySlot: [Int32: Int]?
    private var byID: [String: Int]?

    /// Windows up to this many rows are searched, longer ones indexed.
    private static var searchedRows: Int { 64 }

    init(_ rows: [LiveRow]) {
        self.rows = rows
        slots = rows.map(\.slot)
    }

    var count: Int { rows.count }

    /// The bytes of the previous row in `entry`'s slot if that row showed the item as it is
    /// now (same id, revision and section); `position` is the entry's place in the window,
    /// where an unmoved row is found first.
    func unchangedBytes(of entry: LiveWindowRow, at position: Int) -> [UInt8]? {
        guard let index = index(slot: entry.slot, near: position), rows[index].id == entry.id,
            rows[index].revision == entry.revision, rows[index].sectionKey == entry.sectionKey
        else { return nil }
        return rows[index].bytes
    }

    /// The bytes of the previous row of the item `id`, now in `slot` at `position`.
    func bytes(id: String, slot: Int32, at position: Int) -> [UInt8]? {
        if let index = index(slot: slot, near: position), rows[index].id == id { return rows[index].bytes }
        if rows.count <= Self.searchedRows { return rows.firstIndex { $0.id == id }.map { rows[$0].bytes } }
        if byID == nil { byID = Dictionary(zip(rows.map(\.id), rows.indices), uniquingKeysWith: { first, _ in first }) }
        return byID?[id].map { rows[$0].bytes }
    }

    /// Where a previous row in `slot` is (callers check its id: a window's slots are unique
    /// within one state, and rows read across a swap are not compared), looked for at
    /// `position` first, then one before and one after (where a row stood before one came or
    /// went above it). Rows are read in place: a copy retains three buffers, cold by now.
    private func index(slot: Int32, near position: Int) -> Int? {
        if position < slots.count, slots[position] == slot { return position }
        if position > 0, position - 1 < slots.count, slots[position - 1] == slot { return position - 1 }
        if position + 1 < slots.count, slots[position + 1] == slot { return position + 1 }
        if rows.count <= Self.searchedRows { return slots.firstIndex(of: slot) }
        if bySlot == nil { bySlot = Dictionary(zip(slots, rows.indices), uniquingKeysWith: { first, _ in first }) }
        return bySlot?[slot]
    }
}

/// Where an item sorts in a list: its sort key, ties broken by id.
struct LiveSortPosition {
    let key: SortKey
    let id: String
}

/// A formatted row of a live window, with its section's key in a grouped list.
struct LiveRow {
    let id: String
    let slot: Int32
    let revision: UInt32
    let sectionKey: String?
    let bytes: [UInt8]
}

/// What the change of one item means to lists of one fingerprint (filter, scope, search
/// and sort): whether it was and is in them, and its sort key before and after. The same
/// for every list of that fingerprint, so it is found once per batch however many
/// locales, zones and windows watch.
struct LiveEffectFacts {
    /// Whether the item, before or after, is among those the list's counts count.
    let isCounted: Bool
    let wasIn: Bool
    let isIn: Bool
    let old: LiveSortPosition?
    let new: LiveSortPosition?
}

typealias LiveFactsMemo = [String: [LiveEffectFacts]]

/// Rows formatted during one batch, so a row is formatted once per display context and
/// access however many lists show it.
typealias LiveRowMemo = [LiveRowKey: [UInt8]]

struct LiveRowKey: Hashable {
    let slot: Int32
    let revision: UInt32
    let display: DisplayContext
    /// Whose list: a row says what its readers may do.
    let access: AccessScope
    let purpose: ListPurpose
    let sectionKey: String?
}

/// What names a live window apart from how its rows are shown: the list (its fingerprint:
/// collection, view, scope, caller's access, search, sort), where the window starts, its size
/// and purpose. Lists with one key differ only in locale and zone, but for a grouped list,
/// whose sections are the zone's days and the locale's letters: its key holds both.
struct LiveWindowKey: Hashable {
    let fingerprint: String
    let start: PageStart
    let limit: Int
    let purpose: ListPurpose
    let grouping: String?
    let groupedDisplay: DisplayContext?
    /// Hashed once: a round looks a list's window up several times, and the fingerprint is text.
    private let hash: Int

    init<C: ListCollection>(_ criteria: ListCriteria<C>) {
        fingerprint = criteria.fingerprint
        start = criteria.start
        limit = criteria.limit
        purpose = criteria.purpose
        grouping = criteria.group?.rawValue
        groupedDisplay = criteria.group == nil ? nil : criteria.display
        var hasher = Hasher()
        hasher.combine(fingerprint)
        hasher.combine(start)
        hasher.combine(limit)
        hasher.combine(purpose)
        hasher.combine(grouping)
        hasher.combine(groupedDisplay)
        hash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// A window read for one refresh round, with the state and version it was read at, and what
/// lists sharing it found from it last (their diff, their next page's cursor).
struct LiveWindowMemo<C: ListCollection> {
    let state: ObjectIdentifier
    let version: UInt64
    let window: CollectionEngine<C>.LiveWindow?
    var diff: LiveDiffMemo?
    /// The cursor after a last row, made once for the lists sharing the window.
    var nextCursor: (row: LiveRowIdentity, cursor: String)?
    /// Counts' changes as deltas write them, one per locale and change met this round.
    var counts: [LiveCountsMemo] = []
}

/// A change of counts as a delta writes it for one locale: the same in every list of that
/// locale sharing the window (all zones but where the count scope differs: then the numbers do).
struct LiveCountsMemo {
    let previous: [Int]
    let values: [Int]
    let localeTag: String
    let texts: [String]
    let members: [UInt8]
}

/// The ops from one window's ids to the next: the same for every list of a round that shared
/// the window before and after (they differ only in locale and zone), so found once.
struct LiveDiffMemo {
    let old: [String]
    let new: [String]
    let changed: Set<String>
    let ops: [WindowOp]
}
