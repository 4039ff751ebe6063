import Foundation

/// An immutable version of a collection with everything a query needs precomputed at load:
/// filter fields, the search index and, per sort field and direction, the full order of all
/// items (ties by id). A query is one scan and one walk of a presorted order, never a sort.
public final class CollectionSnapshot<C: ListCollection>: Sendable {
    public let version: UInt64
    public let items: [C.Item]
    private let positionByID: [String: Int]
    private let filterFields: [C.FilterFields]
    private let search: SearchIndex
    private let sortOrders: [SortOrderKey: [Int32]]

    private struct SortOrderKey: Hashable {
        let field: C.SortField
        let direction: SortDirection
    }

    public init(items: [C.Item], version: UInt64) {
        self.version = version
        self.items = items
        var positions: [String: Int] = [:]
        positions.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { positions[C.id(of: item)] = index }
        positionByID = positions
        filterFields = items.map(C.filterFields)
        search = Self.makeSearchIndex(items)
        sortOrders = Self.makeSortOrders(items)
    }

    public var count: Int { items.count }

    public func item(id: String) -> C.Item? { positionByID[id].map { items[$0] } }

    /// The indices of the items in `view` and `scope` whose text contains `foldedQuery`,
    /// sorted by `field` in `direction`, ties by id.
    public func evaluate(
        view: C.View, scope: C.Scope, foldedQuery: String, sort field: C.SortField, direction: SortDirection
    ) -> [Int32] {
        let sorted = sortOrders[SortOrderKey(field: field, direction: direction)] ?? []
        var matches = filterFields.map { C.matches($0, view: view, scope: scope) }
        search.keepMatches(of: foldedQuery, in: &matches)
        if !matches.contains(false) { return sorted }
        return sorted.filter { matches[Int($0)] }
    }

    /// Where the page after `cursor` starts in `result`: the first row that sorts after the
    /// cursor's (key, id), found by binary search, so rows added or removed meanwhile cause
    /// neither duplicates nor gaps. Nil when the cursor's key is not readable.
    public func position(after cursor: PageCursor, in result: [Int32], sort field: C.SortField, direction: SortDirection) -> Int? {
        guard let key = SortKey(cursorText: cursor.sortValue) else { return nil }
        // Rows sort by (key in `direction`, id ascending); find the first that sorts after the cursor.
        func sortsAfterCursor(_ item: C.Item) -> Bool {
            let itemKey = C.sortKey(of: item, by: field)
            if itemKey == key { return C.id(of: item) > cursor.id }
            return direction == .asc ? key < itemKey : itemKey < key
        }
        var low = 0, high = result.count
        while low < high {
            let middle = (low + high) / 2
            if sortsAfterCursor(items[Int(result[middle])]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private static func makeSearchIndex(_ items: [C.Item]) -> SearchIndex {
        var index = SearchIndex(fieldCount: items.first.map { C.searchableText(of: $0).count } ?? 0)
        var folded: [String: String] = [:]  // values repeat (names, places); fold each once
        for item in items {
            index.append(
                C.searchableText(of: item).map { text in
                    if let known = folded[text] { return known }
                    let result = TextFolding.fold(text)
                    folded[text] = result
                    return result
                })
        }
        return index
    }

    private static func makeSortOrders(_ items: [C.Item]) -> [SortOrderKey: [Int32]] {
        let indices = (0..<Int32(items.count)).map { $0 }
        // Rank ids and keys once; every sort then compares integers.
        let ids = items.map(C.id)
        var idRank = [Int32](repeating: 0, count: items.count)
        for (rank, index) in indices.sorted(by: { ids[Int($0)] < ids[Int($1)] }).enumerated() { idRank[Int(index)] = Int32(rank) }
        var result: [SortOrderKey: [Int32]] = [:]
        for field in C.SortField.allCases {
            let keys = items.map { C.sortKey(of: $0, by: field) }
            let distinct = Set(keys).sorted()
            let rankOfKey = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, Int32($0)) })
            let keyRank = keys.map { rankOfKey[$0] ?? 0 }
            for direction in SortDirection.allCases {
                result[SortOrderKey(field: field, direction: direction)] = indices.sorted { a, b in
                    let ka = keyRank[Int(a)], kb = keyRank[Int(b)]
                    if ka != kb { return direction == .asc ? ka < kb : ka > kb }
                    return idRank[Int(a)] < idRank[Int(b)]
                }
            }
        }
        return result
    }
}
