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
        var opener = CollectionOpener(source: .stores(stores), log: log)
        CollectionRegistry.visitAll(&opener)
        self.init(
            opener, cache: (sharedPages, sharedCacheBytes), compactAfterBytes: .max, sessions: sessions, live: live, log: log, clock: clock)
    }

    /// Opens the service on its storage: each collection's snapshot plus its journal replayed
    /// (see `StorageConfiguration`). Logs one line per collection. A state directory that
    /// cannot be written is a start-up error: no write may be acknowledged that is not saved.
    package static func open(
        _ storage: StorageConfiguration, sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        sharedCacheBytes: Int = defaultSharedCacheBytes, live: LiveConfiguration = LiveConfiguration(), log: ServiceLog = .standardError,
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws(StartupError) -> CollectionService {
        if let directory = storage.stateDirectory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StartupError(description: "cannot create the state directory \(directory): \(error.localizedDescription)")
            }
        }
        var opener = CollectionOpener(source: .storage(storage), log: log)
        CollectionRegistry.visitAll(&opener)
        if let error = opener.error { throw error }
        for line in opener.reports { log.line("level=info event=loaded \(line)") }
        FreedMemory.returnToSystem()  // hand the parsers' freed memory back to the OS rather than keep it as RSS
        return CollectionService(
            opener, cache: (sharedPages, sharedCacheBytes), compactAfterBytes: storage.compactAfterBytes, sessions: sessions,
            live: live, log: log, clock: clock)
    }

    private init(
        _ opened: CollectionOpener, cache: (pages: Int, bytes: Int), compactAfterBytes: Int, sessions: SessionStore,
        live configuration: LiveConfiguration, log: ServiceLog, clock: @escaping @Sendable () -> Date
    ) {
        let metrics = ServiceMetrics()
        let live = LiveHub(configuration: configuration)
        let context = EngineContext(
            metrics: metrics, formatters: FormatterCache(), sharedPages: cache.pages,
            sharedCacheBytes: cache.bytes, itemCounts: opened.itemCounts, live: live, clock: clock)
        self.live = live
        let collections = opened.collections.map { $0(context) }
        engines = Engines(collections.map(\.engine))
        // Ids continue after the highest of the items held and of what storage recorded
        // (ids of deleted items are never given again).
        let sequences = Dictionary(
            uniqueKeysWithValues: collections.map { ($0.engine.name, max($0.engine.highestHeldSequence, $0.recordedSequence)) })
        self.metrics = metrics
        self.sessions = sessions
        self.log = log
        self.clock = clock
        let writes = WriteCoordinator(
            engines: engines, files: collections.compactMap(\.files), compactAfterBytes: compactAfterBytes, sequences: sequences, log: log)
        self.writes = writes
        endpoints = collections.map { $0.endpoint(writes) }
        writes.writeMissingSnapshots()
    }

    package var now: Date { clock() }

    /// The engine of collection `C`.
    package func engine<C: ListCollection>(_ collection: C.Type) -> CollectionEngine<C> { engines.engine(C.self) }

    /// Item counts per collection, for the start-up log.
    package var itemCounts: [(name: String, count: Int)] { engines.all.map { ($0.name, $0.itemCount) } }

    /// Whether the named collection holds an item with this id.
    package func contains(id: String, in collection: String) -> Bool { engines.named(collection)?.containsItem(id: id) ?? false }

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

/// One collection, opened: its engine, its files (nil in memory), the highest sequence
/// storage recorded, and how to make its endpoint once writes are wired.
struct OpenedCollection {
    let engine: any AnyCollectionEngine
    let files: CollectionFiles?
    let recordedSequence: Int
    let endpoint: (WriteCoordinator) -> CollectionEndpoint
}

/// Opens each registered collection with its concrete type: its state from the given stores
/// or from storage (snapshot and journal), then, once the number of collections is known,
/// its engine and its journal. Stops at the first error.
private struct CollectionOpener: CollectionVisitor {
    enum Source {
        case stores([any AnyCollectionStore])
        case storage(StorageConfiguration)
    }

    let source: Source
    let log: ServiceLog
    var collections: [(EngineContext) -> OpenedCollection] = []
    var itemCounts: [Int] = []
    var reports: [String] = []
    var error: StartupError?

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        open(C.self) { engine, _ in CollectionEndpoint(C.self, engine: engine) }
    }

    mutating func visit<C: EditableCollection>(_ collection: C.Type) {
        open(C.self) { engine, writes in CollectionEndpoint(C.self, engine: engine, writes: writes) }
    }

    private mutating func open<C: ListCollection>(
        _ collection: C.Type, endpoint: @escaping (CollectionEngine<C>, WriteCoordinator) -> CollectionEndpoint
    ) {
        guard error == nil else { return }
        switch source {
        case .stores(let stores):
            let state = stores.lazy.compactMap { $0 as? CollectionState<C> }.first ?? CollectionState<C>(items: [])
            itemCounts.append(state.count)
            collections.append { context in
                let engine = Self.engine(state, context)
                return OpenedCollection(engine: engine, files: nil, recordedSequence: 0, endpoint: { endpoint(engine, $0) })
            }
        case .storage(let storage):
            do {
                let recovered = try RecoveredCollection<C>.recover(storage, log: log)
                let journal = try recovered.journalPath.map { path throws(StartupError) in
                    do {
                        return try Journal(path: path, length: recovered.journalLength)
                    } catch {
                        throw StartupError(description: "cannot open the journal: \(error)")
                    }
                }
                reports.append(recovered.report)
                itemCounts.append(recovered.state.count)
                collections.append { context in
                    let engine = Self.engine(recovered.state, context)
                    return OpenedCollection(
                        engine: engine, files: journal.map { Self.files(of: engine, journal: $0, needsSnapshot: recovered.needsSnapshot) },
                        recordedSequence: recovered.highestSequence,
                        endpoint: { endpoint(engine, $0) })
                }
            } catch {
                self.error = error
            }
        }
    }

    private static func engine<C: ListCollection>(_ state: CollectionState<C>, _ context: EngineContext) -> CollectionEngine<C> {
        CollectionEngine(
            state: state, metrics: context.metrics, formatters: context.formatters, pageCapacity: context.sharedPages,
            cacheBytes: EngineContext.share(of: context.sharedCacheBytes, forItems: state.count, among: context.itemCounts),
            live: context.live, clock: context.clock)
    }

    /// The collection's files beside its journal: snapshot, sequence high-water mark.
    private static func files<C: ListCollection>(of engine: CollectionEngine<C>, journal: Journal, needsSnapshot: Bool) -> CollectionFiles {
        let directory = (journal.path as NSString).deletingLastPathComponent as NSString
        return CollectionFiles(
            name: C.name, snapshotPath: directory.appendingPathComponent(SnapshotFile.fileName(C.self)),
            sequencePath: directory.appendingPathComponent(RecoveredCollection<C>.sequenceFileName), journal: journal,
            needsSnapshot: needsSnapshot,
            takeSnapshot: {
                let items = engine.state.allItems
                return { SnapshotFile.encode(items, as: C.self) }
            })
    }
}
