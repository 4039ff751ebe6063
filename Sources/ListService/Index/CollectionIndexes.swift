import Basics
import Dispatch

extension CollectionState {
    /// What a query needs beside the items, built at load in independent parts that run on
    /// every core at once: slots by id, filter fields, each search field, each sort field's
    /// order. A million orders are indexed in about the time the slowest part takes.
    struct Indexes {
        private(set) var slotByID = ReferenceTable()
        private(set) var filterFields: [C.FilterFields?] = []
        private(set) var search = SearchIndex(fields: [])
        private(set) var sortOrders: [OrderKey: SlotOrder] = [:]
        private(set) var slotsByOwner: [OwnerID: [Int32]] = [:]

        private enum Part: Sendable {
            case slotByID(ReferenceTable)
            case filterFields([C.FilterFields?], slotsByOwner: [OwnerID: [Int32]])
            case searchField(Int, SearchIndex.Field)
            case sortField(OrderKey, SlotOrder)
        }

        init(_ items: [C.Item]) {
            let searchFields = C.searchableFields
            let sortFields = Array(C.SortField.allCases)
            let idRank = Self.idRanks(items, isLive: nil)
            let parts = Locked<[Part]>([])
            // One sort field at a time: each builds an array of entries of the collection's size
            // (12 MB at a million), and two at once were the load's peak; the other parts run
            // beside it.
            let oneSortAtATime = DispatchSemaphore(value: 1)
            DispatchQueue.concurrentPerform(iterations: 2 + searchFields.count + sortFields.count) { task in
                // Items are read in place, one field at a time: an order copied whole costs a
                // dozen reference counts.
                let part = items.withUnsafeBufferPointer { items -> Part in
                    switch task {
                    case 0:
                        var table = ReferenceTable(capacity: items.count)
                        for slot in items.indices {
                            table.insert(Int32(slot), hash: C.id(of: items[slot]).hashValue) { C.id(of: items[Int($0)]).hashValue }
                        }
                        return .slotByID(table)
                    case 1:
                        var slotsByOwner: [OwnerID: [Int32]] = [:]
                        for slot in items.indices {
                            let owner = C.owner(of: items[slot])
                            if owner != .none { slotsByOwner[owner, default: []].append(Int32(slot)) }
                        }
                        return .filterFields(items.indices.map { C.filterFields(of: items[$0]) }, slotsByOwner: slotsByOwner)
                    case let task where task < 2 + searchFields.count:
                        let field = task - 2, text = searchFields[field]
                        return .searchField(field, SearchIndex.Field(values: items.indices.lazy.map { text(items[$0]) }))
                    default:
                        // Text in the root order: other collations are built when a list first asks.
                        let key = OrderKey(field: sortFields[task - 2 - searchFields.count], collation: .root)
                        oneSortAtATime.wait()
                        defer { oneSortAtATime.signal() }
                        return .sortField(key, Self.sortOrder(of: items, isLive: nil, by: key, idRank: idRank))
                    }
                }
                parts.withLock { $0.append(part) }
            }
            var searchIndexFields = [SearchIndex.Field](repeating: SearchIndex.Field(), count: searchFields.count)
            for part in parts.withLock({ $0 }) {
                switch part {
                case .slotByID(let table): slotByID = table
                case .filterFields(let fields, let owners):
                    filterFields = fields
                    slotsByOwner = owners
                case .searchField(let index, let field): searchIndexFields[index] = field
                case .sortField(let key, let order): sortOrders[key] = order
                }
            }
            search = SearchIndex(fields: searchIndexFields)
        }

        /// Each item's rank by id (live ones only, when `isLive` is given), from a sort; nil
        /// when the ids ascend with the slots already (as loaded files and snapshots have them,
        /// and inserts continue them), so that a slot is its own rank. Checked in place: an
        /// array of a million ids is 16 MB more of the load's peak.
        static func idRanks(_ items: [C.Item], isLive: [Bool]?) -> [Int32]? {
            let ascends = items.withUnsafeBufferPointer { items in
                var previous: String?
                for slot in items.indices where isLive?[slot] ?? true {
                    let id = C.id(of: items[slot])
                    if let previous, previous >= id { return false }
                    previous = id
                }
                return true
            }
            if ascends { return nil }
            let live = items.indices.filter { isLive?[$0] ?? true }
            let ids = items.map { C.id(of: $0) }
            var rank = [Int32](repeating: 0, count: items.count)
            for (position, slot) in live.sorted(by: { ids[$0] < ids[$1] }).enumerated() { rank[slot] = Int32(position) }
            return rank
        }

        /// The live slots (all when `isLive` is nil) by `order`'s field and collation in the
        /// field's stored direction (`CollectionState.storedDirection`), ties by id ascending,
        /// each marked when its key equals the previous one's.
        static func sortOrder(of items: UnsafeBufferPointer<C.Item>, isLive: [Bool]?, by order: OrderKey, idRank: [Int32]?) -> SlotOrder {
            let field = order.field
            let slots = items.indices.lazy.filter { isLive?[$0] ?? true }
            // The entries are the only array of the collection's size built here: no array of
            // values or of ranks beside them (at a million items each was 8–24 MB more of the
            // load's peak, per field, with fields built at once).
            var entries: [SortEntry] = []
            entries.reserveCapacity(items.count)
            for index in slots {
                // Numbers compare as they are.
                guard case .number(let value) = C.sortValue(of: items[index], by: field) else { break }
                entries.append(SortEntry(key: value, tie: idRank?[index] ?? Int32(index)))
            }
            if entries.count < (isLive == nil ? items.count : slots.count) {
                // Text collates slowly: rank the distinct values once (few: names repeat), each
                // keyed once, then sort integers.
                var rank: [SortValue: Int64] = [:]
                for index in slots { rank[C.sortValue(of: items[index], by: field)] = 0 }
                let keyed = rank.keys.map { ($0, SortKey($0, collation: order.collation)) }
                for (position, value) in keyed.sorted(by: { $0.1 < $1.1 }).enumerated() { rank[value.0] = Int64(position) }
                entries.removeAll(keepingCapacity: true)
                for index in slots {
                    entries.append(SortEntry(key: rank[C.sortValue(of: items[index], by: field)] ?? 0, tie: idRank?[index] ?? Int32(index)))
                }
            }
            let ascending = SortEntry.sortedOrder(of: &entries, slotOfTie: idRank.map { Self.slots(byRank: $0, isLive: isLive) })
            return CollectionState.storedDirection(of: field) == .asc ? ascending : ascending.reversedRuns()
        }

        /// The slot of each id rank (the inverse of `idRanks`, live slots only).
        private static func slots(byRank rank: [Int32], isLive: [Bool]?) -> [Int32] {
            var slots = [Int32](repeating: 0, count: rank.count)
            for slot in rank.indices where isLive?[slot] ?? true { slots[Int(rank[slot])] = Int32(slot) }
            return slots
        }
    }

    /// What a presorted order is kept for: a sort field and, for text, a collation
    /// (`Collation.root` for numbers, as `ListDefinition` has it).
    struct OrderKey: Hashable {
        let field: C.SortField
        let collation: Collation
    }
}

extension CollectionState.OrderKey {
    /// The order `list` reads.
    init(_ list: ListDefinition<C>) { self.init(field: list.sort, collation: list.collation) }
}

/// A sort key (a number, or a text's rank) and a tie-break (the id's rank; the slot itself
/// where ids ascend with slots), sorted together: neighbours compare in one array rather than
/// looking up two. 12 bytes, the key in two halves (an `Int64` would pad it to 16: 4 MB more
/// per field at a million items, with fields built at once). Not nested in the generic state:
/// there its sort ran unspecialized, through value witnesses, four times slower.
struct SortEntry {
    private let keyHigh: Int32
    private let keyLow: UInt32
    let tie: Int32

    init(key: Int64, tie: Int32) {
        keyHigh = Int32(truncatingIfNeeded: key >> 32)
        keyLow = UInt32(truncatingIfNeeded: key)
        self.tie = tie
    }

    /// Whether the keys are equal (ties aside).
    func hasKey(of other: SortEntry) -> Bool { keyHigh == other.keyHigh && keyLow == other.keyLow }

    /// The slots of `entries` by key, then tie, each marked when its key equals the previous
    /// one's (`entries` is sorted in place); a tie is its slot unless `slotOfTie` says.
    static func sortedOrder(of entries: inout [SortEntry], slotOfTie: [Int32]?) -> SlotOrder {
        entries.sort { ($0.keyHigh, $0.keyLow, $0.tie) < ($1.keyHigh, $1.keyLow, $1.tie) }
        return SlotOrder(
            entries.indices.map { index in
                let slot = slotOfTie?[Int(entries[index].tie)] ?? entries[index].tie
                return index > 0 && entries[index].hasKey(of: entries[index - 1]) ? slot | SlotOrder.continuesRun : slot
            })
    }
}
