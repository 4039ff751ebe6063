import CSystem
import Foundation

/// The whole service without HTTP: one engine per registered collection, the write
/// coordinator, sessions and counters, wired once.
public final class CollectionService: Sendable {
    public let sessions: SessionStore
    public let metrics: ServiceMetrics
    public let engines: Engines
    public let writes: WriteCoordinator
    /// Where the core's log lines go.
    public let log: ServiceLog
    private let clock: @Sendable () -> Date

    /// The bytes the shared caches (pages and sorted results) of all collections may hold.
    public static let defaultSharedCacheBytes = 128 * 1024 * 1024

    /// A service over `stores` whose changes live in memory only; a registered collection
    /// without a store starts empty. `sharedPages` bounds the pages shared between sessions per
    /// collection (0 turns sharing off), `sharedCacheBytes` what all shared caches hold.
    public convenience init(
        stores: [any AnyCollectionStore], sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        sharedCacheBytes: Int = defaultSharedCacheBytes, log: ServiceLog = .standardError,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        let metrics = ServiceMetrics()
        let engines = Self.makeEngines(
            stores: stores, metrics: metrics, sharedPages: sharedPages, sharedCacheBytes: sharedCacheBytes, clock: clock)
        var sequences = SequenceFinder(engines: engines, recovered: [:])
        CollectionRegistry.visitAll(&sequences)
        self.init(
            engines: engines, metrics: metrics, files: [], sequences: sequences.sequences, compactAfterBytes: .max, sessions: sessions, log: log,
            clock: clock)
    }

    private init(
        engines: Engines, metrics: ServiceMetrics, files: [CollectionFiles], sequences: [String: Int], compactAfterBytes: Int, sessions: SessionStore,
        log: ServiceLog, clock: @escaping @Sendable () -> Date
    ) {
        self.engines = engines
        self.metrics = metrics
        self.sessions = sessions
        self.log = log
        self.clock = clock
        writes = WriteCoordinator(engines: engines, files: files, compactAfterBytes: compactAfterBytes, sequences: sequences, log: log)
    }

    private static func makeEngines(
        stores: [any AnyCollectionStore], metrics: ServiceMetrics, sharedPages: Int, sharedCacheBytes: Int,
        clock: @escaping @Sendable () -> Date
    ) -> Engines {
        var maker = EngineMaker(
            stores: stores, metrics: metrics, formatters: FormatterCache(), sharedPages: sharedPages,
            cacheBytesPerCollection: sharedCacheBytes / max(1, CollectionRegistry.names.count), clock: clock)
        CollectionRegistry.visitAll(&maker)
        return Engines(maker.engines)
    }

    /// Opens the service on its storage: each collection's snapshot plus its journal replayed
    /// (see `StorageConfiguration`). Logs one line per collection. A state directory that
    /// cannot be written is a start-up error: no write may be acknowledged that is not saved.
    public static func open(
        _ storage: StorageConfiguration, sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        sharedCacheBytes: Int = defaultSharedCacheBytes, log: ServiceLog = .standardError,
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws(StartupError) -> CollectionService {
        if let directory = storage.stateDirectory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StartupError(description: "cannot create the state directory \(directory): \(error.localizedDescription)")
            }
        }
        var recovery = StorageRecovery(storage: storage, log: log)
        CollectionRegistry.visitAll(&recovery)
        if let error = recovery.error { throw error }
        for line in recovery.reports { log.line("level=info event=loaded \(line)") }
        malloc_trim(0)  // hand the parsers' freed memory back to the OS rather than keep it as RSS
        let metrics = ServiceMetrics()
        let engines = makeEngines(
            stores: recovery.stores, metrics: metrics, sharedPages: sharedPages, sharedCacheBytes: sharedCacheBytes, clock: clock)
        var sequences = SequenceFinder(engines: engines, recovered: recovery.sequences)
        CollectionRegistry.visitAll(&sequences)
        var wiring = JournalOpener(engines: engines, journals: recovery.journals)
        CollectionRegistry.visitAll(&wiring)
        if let error = wiring.error { throw error }
        return CollectionService(
            engines: engines, metrics: metrics, files: wiring.files, sequences: sequences.sequences, compactAfterBytes: storage.compactAfterBytes,
            sessions: sessions, log: log, clock: clock)
    }

    public var now: Date { clock() }

    /// The engine of collection `C`.
    public func engine<C: ListCollection>(_ collection: C.Type) -> CollectionEngine<C> { engines.engine(C.self) }

    /// Item counts per collection, for the start-up log.
    public var itemCounts: [(name: String, count: Int)] {
        var counter = ItemCounter(engines: engines)
        CollectionRegistry.visitAll(&counter)
        return counter.counts
    }

    /// Whether the named collection holds an item with this id.
    public func contains(id: String, in collection: String) -> Bool {
        var finder = ItemFinder(engines: engines, collection: collection, id: id)
        CollectionRegistry.visitAll(&finder)
        return finder.isFound
    }

    /// The start of the current UTC hour: the embedded data's anchor, so it is the same for an
    /// hour and "this month" or "today" always has items.
    public static func defaultAnchor(for date: Date = Date()) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }
}

/// A collection's state of any type, for wiring.
public protocol AnyCollectionStore: Sendable {}

extension CollectionState: AnyCollectionStore {}

// MARK: visitors that wire each collection with its concrete type

/// Makes each collection's engine over its state (an empty one if none was given).
private struct EngineMaker: CollectionVisitor {
    let stores: [any AnyCollectionStore]
    let metrics: ServiceMetrics
    let formatters: FormatterCache
    let sharedPages: Int
    let cacheBytesPerCollection: Int
    let clock: @Sendable () -> Date
    var engines: [String: any Sendable] = [:]

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        let state = stores.lazy.compactMap { $0 as? CollectionState<C> }.first ?? CollectionState<C>(items: [])
        engines[C.name] = CollectionEngine(
            state: state, metrics: metrics, formatters: formatters, pageCapacity: sharedPages, cacheBytes: cacheBytesPerCollection,
            clock: clock)
    }
}

/// Recovers each collection from storage, stopping at the first error.
private struct StorageRecovery: CollectionVisitor {
    let storage: StorageConfiguration
    let log: ServiceLog
    var stores: [any AnyCollectionStore] = []
    var journals: [String: (path: String, length: Int)] = [:]
    /// The highest sequence number each collection ever gave out, deleted items included.
    var sequences: [String: Int] = [:]
    var reports: [String] = []
    var error: StartupError?

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        guard error == nil else { return }
        do {
            let recovered = try RecoveredCollection<C>.recover(storage, log: log)
            stores.append(recovered.state)
            if let path = recovered.journalPath { journals[C.name] = (path, recovered.journalLength) }
            sequences[C.name] = recovered.highestSequence
            reports.append(recovered.report)
        } catch {
            self.error = error
        }
    }
}

/// Finds where each collection's id sequence continues: after the highest of its items and
/// of what storage recorded (ids of deleted items are never given again).
private struct SequenceFinder: CollectionVisitor {
    let engines: Engines
    let recovered: [String: Int]
    var sequences: [String: Int] = [:]

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        let highestHeld = engines.engine(C.self).state.allItems.compactMap { C.sequence(of: C.id(of: $0)) }.max() ?? 0
        sequences[C.name] = max(highestHeld, recovered[C.name] ?? 0)
    }
}

/// Opens each collection's journal for appending; a journal that cannot be opened stops
/// start-up (a write to it could not be made durable).
private struct JournalOpener: CollectionVisitor {
    let engines: Engines
    let journals: [String: (path: String, length: Int)]
    var files: [CollectionFiles] = []
    var error: StartupError?

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        guard error == nil, let journal = journals[C.name] else { return }
        let engine = engines.engine(C.self)
        let directory = (journal.path as NSString).deletingLastPathComponent as NSString
        do {
            files.append(
                CollectionFiles(
                    name: C.name, dataPath: directory.appendingPathComponent(C.fileName),
                    sequencePath: directory.appendingPathComponent(RecoveredCollection<C>.sequenceFileName),
                    journal: try Journal(path: journal.path, length: journal.length),
                    takeSnapshot: {
                        let items = engine.state.allItems
                        return { C.encodeDataFile(items) }
                    }))
        } catch {
            self.error = StartupError(description: "cannot open the journal: \(error)")
        }
    }
}

private struct ItemCounter: CollectionVisitor {
    let engines: Engines
    var counts: [(name: String, count: Int)] = []

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        counts.append((C.name, engines.engine(C.self).state.count))
    }
}

private struct ItemFinder: CollectionVisitor {
    let engines: Engines
    let collection: String
    let id: String
    var isFound = false

    mutating func visit<C: ListCollection>(_ type: C.Type) {
        if C.name == collection { isFound = engines.engine(C.self).state.item(id: id) != nil }
    }
}
