/// Items with changes applied in order, by id: an upsert replaces the item with its id or adds
/// it at the end, a deletion takes it out. How a journal's records and `MemoryStorage`'s kept
/// changes are replayed onto the items they started from; replaying a change the items already
/// hold changes nothing.
struct ItemReplay<C: ListCollection> {
    private var items: [C.Item?]
    private var slots: [String: Int]
    /// The highest id sequence the changes named, deletions included (ids are never given twice).
    private(set) var highestSequence = 0

    init(_ base: [C.Item]) {
        items = base
        slots = Dictionary(base.enumerated().map { (C.id(of: $1), $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func upsert(_ item: C.Item) {
        let id = C.id(of: item)
        noteSequence(of: id)
        if let slot = slots[id] {
            items[slot] = item
        } else {
            slots[id] = items.count
            items.append(item)
        }
    }

    mutating func delete(id: String) {
        noteSequence(of: id)
        if let slot = slots.removeValue(forKey: id) { items[slot] = nil }
    }

    /// The items after the changes, in slot order.
    var result: [C.Item] { items.compactMap { $0 } }

    private mutating func noteSequence(of id: String) { highestSequence = max(highestSequence, C.sequence(of: id) ?? 0) }
}
