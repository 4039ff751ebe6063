import Foundation

/// The whole service without HTTP: one engine per registered collection, sessions and
/// counters, wired once.
public final class ListService: Sendable {
    public let sessions: SessionStore
    public let metrics: ServiceMetrics
    private let engines: [String: any Sendable]
    private let clock: @Sendable () -> Date

    /// Serves `stores`; a registered collection without a store starts empty.
    /// `sharedPages` bounds the pages shared between sessions per collection; 0 turns sharing off.
    public init(
        stores: [any AnyCollectionStore], sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        let metrics = ServiceMetrics()
        let formatters = FormatterCache()
        self.metrics = metrics
        self.sessions = sessions
        self.clock = clock
        var engines: [String: any Sendable] = [:]
        for collection in CollectionRegistry.all {
            engines[collection.name] = Self.makeEngine(
                collection, stores: stores, metrics: metrics, formatters: formatters, sharedPages: sharedPages, clock: clock)
        }
        self.engines = engines
    }

    public var now: Date { clock() }

    /// The engine of collection `C` (every registered collection has one).
    public func engine<C: ListCollection>(_ collection: C.Type) -> CollectionEngine<C> {
        guard let engine = engines[C.name] as? CollectionEngine<C> else {
            preconditionFailure("\(C.name) is not in CollectionRegistry.all")
        }
        return engine
    }

    /// Item counts per collection, for the start-up log.
    public var itemCounts: [(name: String, count: Int)] {
        CollectionRegistry.all.map { ($0.name, count(of: $0)) }
    }

    private func count<C: ListCollection>(of collection: C.Type) -> Int { engine(C.self).store.snapshot.count }

    /// Whether the named collection holds an item with this id.
    public func contains(id: String, in collection: String) -> Bool {
        CollectionRegistry.all.contains { $0.name == collection && contains(id: id, of: $0) }
    }

    private func contains<C: ListCollection>(id: String, of collection: C.Type) -> Bool {
        engine(C.self).store.snapshot.item(id: id) != nil
    }

    private static func makeEngine<C: ListCollection>(
        _ collection: C.Type, stores: [any AnyCollectionStore], metrics: ServiceMetrics, formatters: FormatterCache,
        sharedPages: Int, clock: @escaping @Sendable () -> Date
    ) -> any Sendable {
        let store = stores.lazy.compactMap { $0 as? CollectionStore<C> }.first ?? CollectionStore<C>(items: [])
        return CollectionEngine(store: store, metrics: metrics, formatters: formatters, pageCapacity: sharedPages, clock: clock)
    }

    /// Loads every registered collection's file from `directory`, or, without one, the
    /// embedded default data dated relative to `anchor`.
    public static func loadStores(directory: URL?, anchor: Date) throws(DataLoadError) -> [any AnyCollectionStore] {
        var stores: [any AnyCollectionStore] = []
        for collection in CollectionRegistry.all {
            stores.append(try loadStore(collection, directory: directory, anchor: anchor))
        }
        return stores
    }

    private static func loadStore<C: ListCollection>(
        _ collection: C.Type, directory: URL?, anchor: Date
    ) throws(DataLoadError) -> any AnyCollectionStore {
        if let directory { return try CollectionStore<C>.load(from: directory) }
        return CollectionStore<C>(items: C.makeDefaultItems(anchor: anchor))
    }

    /// The start of the current UTC hour: the embedded data's anchor, so it is the same for an
    /// hour and "this month" or "today" always has items.
    public static func defaultAnchor(for date: Date = Date()) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }
}

/// A collection's store of any type, for wiring.
public protocol AnyCollectionStore: Sendable {}

extension CollectionStore: AnyCollectionStore {}
