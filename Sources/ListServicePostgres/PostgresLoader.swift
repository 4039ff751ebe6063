import ListService

/// Reads every registered collection from its table, with its concrete type (inside the
/// caller's snapshot transaction). Stops at the first error.
struct PostgresLoader: CollectionVisitor {
    let connection: PostgresConnection
    var stores: [any AnyCollectionStore] = []
    var sequences: [String: Int] = [:]
    var reports: [String] = []
    var error: PostgresError?

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        guard error == nil else { return }
        do {
            let (items, highestSequence, lastPosition) = try PostgresItems.rows(C.self, from: connection)
            stores.append(CollectionState<C>(items: items, logPosition: lastPosition))
            sequences[C.name] = highestSequence
            reports.append("\(C.name)=\(items.count)")
        } catch {
            self.error = error
        }
    }

    /// Every registered collection's name: one table each.
    static var collectionNames: [String] {
        var names = NameCollector()
        CollectionRegistry.visitAll(&names)
        return names.names
    }

    /// Each collection's items in `stores` as seeds, their data files' JSON records.
    static func seeds(_ stores: [any AnyCollectionStore]) -> [PostgresItems.Seed] {
        var seeds = SeedCollector(stores: stores)
        CollectionRegistry.visitAll(&seeds)
        return seeds.seeds
    }
}

private struct NameCollector: CollectionVisitor {
    var names: [String] = []
    mutating func visit<C: ListCollection>(_ collection: C.Type) { names.append(C.name) }
}

private struct SeedCollector: CollectionVisitor {
    let stores: [any AnyCollectionStore]
    var seeds: [PostgresItems.Seed] = []

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        let items = stores.lazy.compactMap { $0 as? CollectionState<C> }.first?.allItems ?? []
        seeds.append(
            PostgresItems.Seed(collection: C.name) { items.map { (C.id(of: $0), String(decoding: C.record(of: $0), as: UTF8.self)) } })
    }
}
