import Basics
import Dispatch

extension CollectionState {
    /// What a query needs beside the items, built at load in independent parts that run on
    /// every core at once: slots by id, filter fields, each search field, each sort field's
    /// two orders. A million orders are indexed in about the time the slowest part takes.
    struct Indexes {
        private(set) var positions: [String: Int32] = [:]
        private(set) var filterFields: [C.FilterFields?] = []
        private(set) var search = SearchIndex(fields: [])
        private(set) var sortOrders: [SortOrderKey: SlotOrder] = [:]

        private enum Part: Sendable {
            case positions([String: Int32])
            case filterFields([C.FilterFields?])
            case searchField(Int, SearchIndex.Field)
            case sortField(C.SortField, ascending: SlotOrder, descending: SlotOrder)
        }

        init(_ items: [C.Item]) {
            let searchFieldCount = items.first.map { C.searchableText(of: $0).count } ?? 0
            let sortFields = Array(C.SortField.allCases)
            let idRank = Self.idRanks(items)
            let parts = Locked<[Part]>([])
            DispatchQueue.concurrentPerform(iterations: 2 + searchFieldCount + sortFields.count) { task in
                let part: Part
                switch task {
                case 0:
                    var positions: [String: Int32] = [:]
                    positions.reserveCapacity(items.count)
                    for (index, item) in items.enumerated() { positions[C.id(of: item)] = Int32(index) }
                    part = .positions(positions)
                case 1:
                    part = .filterFields(items.map(C.filterFields))
                case let task where task < 2 + searchFieldCount:
                    let field = task - 2
                    part = .searchField(field, SearchIndex.Field(values: items.lazy.map { C.searchableText(of: $0)[field] }))
                default:
                    let field = sortFields[task - 2 - searchFieldCount]
                    let (ascending, descending) = Self.sortOrders(of: items, by: field, idRank: idRank)
                    part = .sortField(field, ascending: SlotOrder(ascending), descending: SlotOrder(descending))
                }
                parts.withLock { $0.append(part) }
            }
            var searchFields = [SearchIndex.Field](repeating: SearchIndex.Field(), count: searchFieldCount)
            for part in parts.withLock({ $0 }) {
                switch part {
                case .positions(let positions): self.positions = positions
                case .filterFields(let fields): filterFields = fields
                case .searchField(let index, let field): searchFields[index] = field
                case .sortField(let field, let ascending, let descending):
                    sortOrders[SortOrderKey(field: field, direction: .asc)] = ascending
                    sortOrders[SortOrderKey(field: field, direction: .desc)] = descending
                }
            }
            search = SearchIndex(fields: searchFields)
        }

        /// Each item's rank by id: its slot when the ids ascend already (as loaded files and
        /// snapshots have them), else from a sort.
        private static func idRanks(_ items: [C.Item]) -> [Int32] {
            let ids = items.map(C.id)
            if zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) { return (0..<Int32(items.count)).map { $0 } }
            var rank = [Int32](repeating: 0, count: items.count)
            for (position, slot) in ids.indices.sorted(by: { ids[$0] < ids[$1] }).enumerated() { rank[slot] = Int32(position) }
            return rank
        }

        /// A sort key's rank and an id's rank, with the slot they belong to: sorting these
        /// compares neighbours in one array rather than looking up two.
        private struct Entry {
            let key: Int64
            let tie: Int32
            let slot: Int32
        }

        /// The slots by `field` ascending and descending, ties by id ascending in both: one sort,
        /// and the descending order is the ascending one read backwards run by run of equal keys.
        private static func sortOrders(of items: [C.Item], by field: C.SortField, idRank: [Int32]) -> ([Int32], [Int32]) {
            let keys = items.map { C.sortKey(of: $0, by: field) }
            let keyRank: [Int64]
            if case let numbers = keys.compactMap({ if case .number(let value) = $0 { value } else { nil } }), numbers.count == keys.count {
                keyRank = numbers  // numbers compare as they are
            } else {
                // Text compares slowly: rank the distinct keys once (few: names repeat), then sort integers.
                var distinct: [SortKey: Int64] = [:]
                for key in keys where distinct[key] == nil { distinct[key] = 0 }
                for (rank, key) in distinct.keys.sorted().enumerated() { distinct[key] = Int64(rank) }
                keyRank = keys.map { distinct[$0] ?? 0 }
            }
            var entries = keyRank.indices.map { Entry(key: keyRank[$0], tie: idRank[$0], slot: Int32($0)) }
            entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.tie < $1.tie }
            var descending: [Int32] = []
            descending.reserveCapacity(entries.count)
            var end = entries.count
            while end > 0 {
                var start = end - 1
                while start > 0 && entries[start - 1].key == entries[end - 1].key { start -= 1 }
                descending += entries[start..<end].lazy.map(\.slot)
                end = start
            }
            return (entries.map(\.slot), descending)
        }
    }
}
