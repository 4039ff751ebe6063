/// The small records live lists keep and pass around, none of them generic.

/// A row as a window last saw it: its slot and revision.
struct LiveRowIdentity: Equatable {
    let slot: Int32
    let revision: UInt32
}

/// Where an item sorts in a list: its sort key, ties broken by id.
struct LiveSortPosition {
    let key: SortKey
    let id: String
}

/// A formatted row of a live window.
struct LiveRow {
    let id: String
    let slot: Int32
    let revision: UInt32
    let bytes: [UInt8]
}

/// What the change of one item means to lists of one fingerprint (filter, scope, search
/// and sort): whether it was and is in them, and its sort key before and after. The same
/// for every list of that fingerprint, so it is found once per batch however many
/// locales, zones and windows watch.
struct LiveEffectFacts {
    let wasIn: Bool
    let isIn: Bool
    let old: LiveSortPosition?
    let new: LiveSortPosition?
}

typealias LiveFactsMemo = [String: [LiveEffectFacts]]

/// Rows formatted during one batch, so a row is formatted once per display context
/// however many lists show it.
typealias LiveRowMemo = [LiveRowKey: [UInt8]]

struct LiveRowKey: Hashable {
    let slot: Int32
    let revision: UInt32
    let display: DisplayContext
    let purpose: ListPurpose
}
