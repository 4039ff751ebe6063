/// A list as it was when an export began, read while writes go on: its slots in order, and
/// its items as they were then. Items change in place, so while a snapshot is open every
/// change first keeps the item it replaces (`SnapshotBook`); a read takes the kept item
/// where there is one. Closing (the export ends, or its client goes) drops what was kept.
package final class ListSnapshot<C: ListCollection>: Sendable {
    private let state: CollectionState<C>
    private let id: UInt64
    private let slots: SlotOrder

    init(state: CollectionState<C>, id: UInt64, slots: SlotOrder) {
        self.state = state
        self.id = id
        self.slots = slots
    }

    deinit { state.closeSnapshot(id) }

    /// How many items the list held.
    package var count: Int { slots.count }

    /// The items at `range` of the list as they were, each with its revision then; nil when
    /// the snapshot had to keep more changed items than its bound (`SnapshotBook.maxKeptItems`).
    func items(in range: Range<Int>) -> [(item: C.Item, revision: UInt32)]? {
        state.snapshotItems(id, at: slots.slots(in: range))
    }
}

/// The open snapshots of one collection state and the items each kept: what changes replaced
/// since it opened, by slot. Written under the state's write lock, read under its read lock.
struct SnapshotBook<Item> {
    struct Kept {
        /// Slots from here on were added after the snapshot opened: no list of it holds them.
        let slotLimit: Int
        var items: [Int32: (item: Item, revision: UInt32)] = [:]
        /// More were kept than `maxKeptItems`: the snapshot no longer reads.
        var isOverrun = false

        /// Keeps what `slot` holds now if the snapshot saw the slot and has not kept it yet;
        /// past `limit` kept items the snapshot is overrun and lets them all go.
        mutating func keep(_ slot: Int32, limit: Int, _ current: () -> (item: Item, revision: UInt32)) {
            guard Int(slot) < slotLimit, !isOverrun, items[slot] == nil else { return }
            if items.count >= limit {
                self = Kept(slotLimit: slotLimit, isOverrun: true)
            } else {
                items[slot] = current()
            }
        }
    }

    private(set) var open: [UInt64: Kept] = [:]
    private var lastID: UInt64 = 0
    /// The most items one snapshot keeps (a very long export under heavy writes): past it the
    /// export stops rather than let memory grow without bound.
    let maxKeptItems: Int

    init(maxKeptItems: Int = 200_000) { self.maxKeptItems = maxKeptItems }

    var isEmpty: Bool { open.isEmpty }

    mutating func openSnapshot(slotLimit: Int) -> UInt64 {
        lastID += 1
        open[lastID] = Kept(slotLimit: slotLimit)
        return lastID
    }

    mutating func close(_ id: UInt64) { open[id] = nil }

    /// Keeps the item `slot` holds now for every open snapshot that saw the slot and has not
    /// kept it yet. Each snapshot is changed where it lies in `open` (a copy of one alive while
    /// its items change would copy all it kept, at every change).
    mutating func keep(_ slot: Int32, _ current: () -> (item: Item, revision: UInt32)) {
        for index in open.values.indices { open.values[index].keep(slot, limit: maxKeptItems, current) }
    }
}
