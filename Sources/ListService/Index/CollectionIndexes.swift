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
                        // Each owner's list made at its size: grown by appends, they held a third more.
                        var counts: [OwnerID: Int] = [:]
                        for item in items {
                            let owner = C.owner(of: item)
                            if owner != .none { counts[owner, default: 0] += 1 }
                        }
                        var slotsByOwner = counts.mapValues { [Int32](reservingCapacity: $0) }
                        for slot in items.indices {
                            let owner = C.owner(of: items[slot])
                            if owner != .none { slotsByOwner[owner]?.append(Int32(slot)) }
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
            var entries = SortEntries(capacity: items.count)
            for index in slots {
                // Numbers compare as they are.
                guard case .number(let value) = C.sortValue(of: items[index], by: field) else { break }
                entries.append(SortEntry(key: value, slot: Int32(index)))
            }
            if entries.count < (isLive == nil ? items.count : slots.count) {
                // Text collates slowly: rank the distinct values once (few: names repeat), each
                // keyed once, then sort integers.
                var rank: [SortValue: Int64] = [:]
                for index in slots { rank[C.sortValue(of: items[index], by: field)] = 0 }
                let keyed = rank.keys.map { ($0, SortKey($0, collation: order.collation)) }
                for (position, value) in keyed.sorted(by: { $0.1 < $1.1 }).enumerated() { rank[value.0] = Int64(position) }
                entries.removeAll()
                for index in slots {
                    entries.append(SortEntry(key: rank[C.sortValue(of: items[index], by: field)] ?? 0, slot: Int32(index)))
                }
            }
            let ascending = entries.sortedOrder(idRank: idRank)
            return CollectionState.storedDirection(of: field) == .asc ? ascending : ascending.reversedRuns()
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
