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
        var maker = EngineMaker(stores: stores, metrics: metrics, formatters: formatters, sharedPages: sharedPages, clock: clock)
        CollectionRegistry.visitAll(&maker)
        self.engines = maker.engines
    }

    /// Makes each collection's engine over its store (an empty one if none was given).
    private struct EngineMaker: CollectionVisitor {
        let stores: [any AnyCollectionStore]
        let metrics: ServiceMetrics
        let formatters: FormatterCache
        let sharedPages: Int
        let clock: @Sendable () -> Date
        var engines: [String: any Sendable] = [:]

        mutating func visit<C: ListCollection>(_ collection: C.Type) {
            let state = stores.lazy.compactMap { $0 as? CollectionState<C> }.first ?? CollectionState<C>(items: [])
            engines[C.name] = CollectionEngine(
                state: state, metrics: metrics, formatters: formatters, pageCapacity: sharedPages, clock: clock)
        }
    }

    public var now: Date { clock() }

    /// The engine of collection `C` (every registered collection has one).
    public func engine<C: ListCollection>(_ collection: C.Type) -> CollectionEngine<C> {
        guard let engine = engines[C.name] as? CollectionEngine<C> else {
            preconditionFailure("\(C.name) is not registered in CollectionRegistry.visitAll")
        }
        return engine
    }

    /// Item counts per collection, for the start-up log.
    public var itemCounts: [(name: String, count: Int)] {
        var counter = ItemCounter(service: self)
        CollectionRegistry.visitAll(&counter)
        return counter.counts
    }

    private struct ItemCounter: CollectionVisitor {
        let service: ListService
        var counts: [(name: String, count: Int)] = []

        mutating func visit<C: ListCollection>(_ collection: C.Type) {
            counts.append((C.name, service.engine(C.self).state.count))
        }
    }

    /// Whether the named collection holds an item with this id.
    public func contains(id: String, in collection: String) -> Bool {
        var finder = ItemFinder(service: self, collection: collection, id: id)
        CollectionRegistry.visitAll(&finder)
        return finder.isFound
    }

    private struct ItemFinder: CollectionVisitor {
        let service: ListService
        let collection: String
        let id: String
        var isFound = false

        mutating func visit<C: ListCollection>(_ type: C.Type) {
            if C.name == collection { isFound = service.engine(C.self).state.item(id: id) != nil }
        }
    }

    /// Loads every registered collection's file from `directory`, or, without one, the
    /// embedded default data dated relative to `anchor`.
    public static func loadStores(directory: URL?, anchor: Date) throws(DataLoadError) -> [any AnyCollectionStore] {
        var loader = StoreLoader(directory: directory, anchor: anchor)
        CollectionRegistry.visitAll(&loader)
        if let error = loader.error { throw error }
        return loader.stores
    }

    private struct StoreLoader: CollectionVisitor {
        let directory: URL?
        let anchor: Date
        var stores: [any AnyCollectionStore] = []
        var error: DataLoadError?

        mutating func visit<C: ListCollection>(_ collection: C.Type) {
            guard error == nil else { return }
            guard let directory else {
                stores.append(CollectionState<C>(items: C.makeDefaultItems(anchor: anchor)))
                return
            }
            do {
                stores.append(try CollectionLoading.load(C.self, from: directory))
            } catch {
                self.error = error
            }
        }
    }

    /// The start of the current UTC hour: the embedded data's anchor, so it is the same for an
    /// hour and "this month" or "today" always has items.
    public static func defaultAnchor(for date: Date = Date()) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }
}

/// A collection's store of any type, for wiring.
public protocol AnyCollectionStore: Sendable {}

extension CollectionState: AnyCollectionStore {}
