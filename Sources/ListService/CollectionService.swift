import Foundation

/// The whole service without HTTP: one engine per registered collection, the write
/// coordinator, sessions and counters, wired once.
package final class CollectionService: Sendable {
    package let sessions: SessionStore
    package let metrics: ServiceMetrics
    package let engines: Engines
    package let writes: WriteCoordinator
    /// Each collection's operations, for the HTTP binding, in registration order.
    package let endpoints: [CollectionEndpoint]
    /// Where the core's log lines go.
    package let log: ServiceLog
    /// Live lists: their queue, caps and counters.
    package let live: LiveHub
    /// Multiplexed live streams (`GET /live`), each carrying many lists of one session.
    package let liveStreams: LiveMux
    private let clock: @Sendable () -> Date

    /// The bytes the shared caches (pages and sorted results) of all collections may hold.
    package static let defaultSharedCacheBytes = 128 * 1024 * 1024

    /// A service over `stores` whose changes live in memory only; a registered collection
    /// without a store starts empty. `sharedPages` bounds the pages shared between sessions per
    /// collection (0 turns sharing off), `sharedCacheBytes` what all shared caches hold.
    package convenience init(
        stores: [any AnyCollectionStore], sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        sharedCacheBytes: Int = defaultSharedCacheBytes, live: LiveConfiguration = LiveConfiguration(), log: ServiceLog = .standardError,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(
            LoadedCollections(stores: stores, position: 0, sequences: [:], reports: []),
            storage: MemoryStorage { LoadedCollections(stores: stores, position: 0, sequences: [:], reports: []) },
            cache: (sharedPages, sharedCacheBytes), sessions: sessions, live: live, answers: AnswerLedger(clock: clock), log: log,
            clock: clock)
    }

    /// Opens the service on its local storage: each collection's snapshot plus its journal
    /// replayed (see `StorageConfiguration`). Logs one line per collection. A state directory
    /// that cannot be written is a start-up error: no write may be acknowledged that is not saved.
    package static func open(
        _ configuration: StorageConfiguration, sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        sharedCacheBytes: Int = defaultSharedCacheBytes, live: LiveConfiguration = LiveConfiguration(),
        answerCapacity: Int = AnswerLedger.defaultCapacity, log: ServiceLog = .standardError,
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws(StartupError) -> CollectionService {
        try open(
            storage: configuration.makeStorage(log: log, answerCapacity: answerCapacity), sessions: sessions, sharedPages: sharedPages,
            sharedCacheBytes: sharedCacheBytes, live: live, answerCapacity: answerCapacity, log: log, clock: clock)
    }

    /// Opens the service on `storage` (the local journal, or a database shared with other
    /// replicas): loads everything, then applies the changes storage reports from elsewhere.
    /// `answerCapacity` bounds the keyed writes' answers kept for replay.
    package static func open(
        storage: any ChangeStorage, sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        sharedCacheBytes: Int = defaultSharedCacheBytes, live: LiveConfiguration = LiveConfiguration(),
        answerCapacity: Int = AnswerLedger.defaultCapacity, log: ServiceLog = .standardError,
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws(StartupError) -> CollectionService {
        let loaded = try storage.load()
        for line in loaded.reports { log.line("level=info event=loaded \(line)") }
        FreedMemory.returnToSystem()  // hand the parsers' freed memory back to the OS rather than keep it as RSS
        let service = CollectionService(
            loaded, storage: storage, cache: (sharedPages, sharedCacheBytes), sessions: sessions, live: live,
            answers: AnswerLedger(capacity: answerCapacity, clock: clock), log: log, clock: clock)
        let writes = service.writes
        storage.watch { writes.catchUpSoon() }
        return service
    }

    /// Every family the core counts, for `/metrics`: the caches, sessions, live lists, replication.
    package var metricFamilies: [MetricFamily] {
        metrics.metricFamilies + [MetricFamily("listservice_sessions", .gauge, "Live sessions.", sessions.count)]
            + live.metrics.metricFamilies(interval: live.pacing.currentMilliseconds)
            + [
                MetricFamily(
                    "listservice_live_multiplexed_streams", .gauge,
                    "Multiplexed live streams (GET /live), connected or awaiting their client.",
                    liveStreams.count)
            ] + writes.replication.metricFamilies + writes.answers.metricFamilies
    }

    private init(
        _ loaded: LoadedCollections, storage: any ChangeStorage, cache: (pages: Int, bytes: Int), sessions: SessionStore,
        live configuration: LiveConfiguration, answers: AnswerLedger, log: ServiceLog, clock: @escaping @Sendable () -> Date
    ) {
        var opener = CollectionOpener(stores: loaded.stores)
        CollectionRegistry.visitAll(&opener)
        let metrics = ServiceMetrics()
        let live = LiveHub(configuration: configuration, sharedEpoch: loaded.sharedEpoch)
        let context = EngineContext(
            metrics: metrics, formatters: FormatterCache(), sharedPages: cache.pages,
            sharedCacheBytes: cache.bytes, itemCounts: opener.itemCounts, live: live, clock: clock)
        self.live = live
        liveStreams = LiveMux(hub: live)
        let collections = opener.collections.map { $0(context) }
        engines = Engines(collections.map(\.engine))
        // Ids continue after the highest of the items held and of what storage recorded
        // (ids of deleted items are never given again).
        let sequences = Dictionary(
            uniqueKeysWithValues: collections.map {
                ($0.engine.name, max($0.engine.highestHeldSequence, loaded.sequences[$0.engine.name] ?? 0))
            })
        self.metrics = metrics
        self.sessions = sessions
        self.log = log
        self.clock = clock
        answers.record(loaded.answers.sorted { $0.recordedAt < $1.recordedAt })
        let writes = WriteCoordinator(
            engines: engines, storage: storage, sequences: sequences, position: loaded.position, answers: answers, log: log,
            livePacing: live.pacing)
        self.writes = writes
        endpoints = collections.map { $0.endpoint(writes) }
        storage.attach(writes)
    }

    package var now: Date { clock() }

    /// The engine of collection `C`.
    package func engine<C: ListCollection>(_ collection: C.Type) -> CollectionEngine<C> { engines.engine(C.self) }

    /// Item counts per collection, for the start-up log.
    package var itemCounts: [(name: String, count: Int)] { engines.all.map { ($0.name, $0.itemCount) } }

    /// Whether the named collection holds an item with this id.
    package func contains(id: String, in collection: String) -> Bool { engines.named(collection)?.containsItem(id: id) ?? false }

    /// Sets `session`'s selected item in `collection` (nil clears it) and sends it to every
    /// live list and map of the collection the session watches, in each of its tabs.
    package func select(_ id: String?, in collection: String, for session: Session) {
        session.select(id, in: collection)
        engines.named(collection)?.selectionChanged(for: session)
    }

    /// The collections whose list and map share a session's selection.
    package var namesSharingSelection: [String] { engines.all.filter(\.sharesSelection).map(\.name) }

    /// The start of the current UTC hour: the embedded data's anchor, so it is the same for an
    /// hour and "this month" or "today" always has items.
    package static func defaultAnchor(for date: Date = Date()) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }
}

/// A collection's state of any type, for `CollectionService(stores:)`.
package protocol AnyCollectionStore: Sendable {}

extension CollectionState: AnyCollectionStore {}

/// What every engine is made with.
struct EngineContext {
    let metrics: ServiceMetrics
    let formatters: FormatterCache
    let sharedPages: Int
    let sharedCacheBytes: Int
    /// Every collection's item count when opened.
    let itemCounts: [Int]
    let live: LiveHub
    let clock: @Sendable () -> Date

    /// A collection's part of the shared caches: in proportion to its items, each counted as
    /// if it had `smoothing` more, so that every collection keeps some and the parts add up to
    /// the whole. A million orders beside a thousand tasks take nearly all of it (one sorted
    /// result of theirs is 4 MB), where an even split would leave them room for two results.
    static func share(of bytes: Int, forItems count: Int, among itemCounts: [Int]) -> Int {
        let smoothing = 10_000
        let weight = Double(count + smoothing), total = Double(itemCounts.reduce(0, +) + smoothing * max(1, itemCounts.count))
        return Int(Double(bytes) * weight / total)
    }
}

/// One collection, opened: its engine, and how to make its endpoint once writes are wired.
struct OpenedCollection {
    let engine: any AnyCollectionEngine
    let endpoint: (WriteCoordinator) -> CollectionEndpoint
}

/// Makes each registered collection's engine, with its concrete type, from the loaded stores
/// (one without a store starts empty), once the number of collections is known.
private struct CollectionOpener: CollectionVisitor {
    let stores: [any AnyCollectionStore]
    var collections: [(EngineContext) -> OpenedCollection] = []
    var itemCounts: [Int] = []

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        open(C.self) { engine, writes in CollectionEndpoint(C.self, engine: engine, writes: writes) }
    }

    mutating func visit<C: EditableCollection>(_ collection: C.Type) {
        open(C.self) { engine, writes in CollectionEndpoint(C.self, engine: engine, writes: writes) }
    }

    private mutating func open<C: ListCollection>(
        _ collection: C.Type, endpoint: @escaping (CollectionEngine<C>, WriteCoordinator) -> CollectionEndpoint
    ) {
        let state = stores.lazy.compactMap { $0 as? CollectionState<C> }.first ?? CollectionState<C>(items: [])
        itemCounts.append(state.count)
        collections.append { context in
            let engine = Self.engine(state, context)
            return OpenedCollection(engine: engine, endpoint: { endpoint(engine, $0) })
        }
    }

    private static func engine<C: ListCollection>(_ state: CollectionState<C>, _ context: EngineContext) -> CollectionEngine<C> {
        CollectionEngine(
            state: state, metrics: context.metrics, formatters: context.formatters, pageCapacity: context.sharedPages,
            cacheBytes: EngineContext.share(of: context.sharedCacheBytes, forItems: state.count, among: context.itemCounts),
            live: context.live, clock: context.clock)
    }
}
