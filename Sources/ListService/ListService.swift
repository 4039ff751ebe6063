import CSystem
import Foundation

/// The whole service without HTTP: one engine per registered collection, the write
/// coordinator, sessions and counters, wired once.
public final class ListService: Sendable {
    public let sessions: SessionStore
    public let metrics: ServiceMetrics
    public let engines: Engines
    public let writes: WriteCoordinator
    private let clock: @Sendable () -> Date

    /// A service over `stores` whose changes live in memory only; a registered collection
    /// without a store starts empty. `sharedPages` bounds the pages shared between sessions per
    /// collection; 0 turns sharing off.
    public convenience init(
        stores: [any AnyCollectionStore], sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(stores: stores, journals: [:], compactAfterBytes: .max, sessions: sessions, sharedPages: sharedPages, clock: clock)
    }

    private init(
        stores: [any AnyCollectionStore], journals: [String: (path: String, length: Int)], compactAfterBytes: Int,
        sessions: SessionStore, sharedPages: Int, clock: @escaping @Sendable () -> Date
    ) {
        let metrics = ServiceMetrics()
        self.metrics = metrics
        self.sessions = sessions
        self.clock = clock
        var maker = EngineMaker(stores: stores, metrics: metrics, formatters: FormatterCache(), sharedPages: sharedPages, clock: clock)
        CollectionRegistry.visitAll(&maker)
        let engines = Engines(maker.engines)
        self.engines = engines
        var wiring = WriteWiring(engines: engines, journals: journals)
        CollectionRegistry.visitAll(&wiring)
        writes = WriteCoordinator(engines: engines, files: wiring.files, compactAfterBytes: compactAfterBytes, sequences: wiring.sequences)
    }

    /// Opens the service on its storage: each collection's snapshot plus its journal replayed
    /// (see `StorageConfiguration`). Logs one line per collection.
    public static func open(
        _ storage: StorageConfiguration, sessions: SessionStore = SessionStore(), sharedPages: Int = 2048,
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws(StartupError) -> ListService {
        if let directory = storage.stateDirectory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StartupError(description: "cannot create the state directory \(directory): \(error.localizedDescription)")
            }
        }
        var recovery = StorageRecovery(storage: storage)
        CollectionRegistry.visitAll(&recovery)
        if let error = recovery.error { throw error }
        for line in recovery.reports { Log.line("level=info event=loaded \(line)") }
        malloc_trim(0)  // hand the parsers' freed memory back to the OS rather than keep it as RSS
        return ListService(
            stores: recovery.stores, journals: recovery.journals, compactAfterBytes: storage.compactAfterBytes,
            sessions: sessions, sharedPages: sharedPages, clock: clock)
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
    let clock: @Sendable () -> Date
    var engines: [String: any Sendable] = [:]

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        let state = stores.lazy.compactMap { $0 as? CollectionState<C> }.first ?? CollectionState<C>(items: [])
        engines[C.name] = CollectionEngine(state: state, metrics: metrics, formatters: formatters, pageCapacity: sharedPages, clock: clock)
    }
}

/// Recovers each collection from storage, stopping at the first error.
private struct StorageRecovery: CollectionVisitor {
    let storage: StorageConfiguration
    var stores: [any AnyCollectionStore] = []
    var journals: [String: (path: String, length: Int)] = [:]
    var reports: [String] = []
    var error: StartupError?

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        guard error == nil else { return }
        do {
            let recovered = try RecoveredCollection<C>.recover(storage)
            stores.append(recovered.state)
            if let path = recovered.journalPath { journals[C.name] = (path, recovered.journalLength) }
            reports.append(recovered.report)
        } catch {
            self.error = error
        }
    }
}

/// Opens each collection's journal and finds where its id sequence continues.
private struct WriteWiring: CollectionVisitor {
    let engines: Engines
    let journals: [String: (path: String, length: Int)]
    var files: [CollectionFiles] = []
    var sequences: [String: Int] = [:]

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        let engine = engines.engine(C.self)
        sequences[C.name] = engine.state.allItems.compactMap { C.sequence(of: C.id(of: $0)) }.max() ?? 0
        guard let journal = journals[C.name] else { return }
        do {
            let dataPath = ((journal.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(C.fileName)
            files.append(
                CollectionFiles(
                    name: C.name, dataPath: dataPath, journal: try Journal(path: journal.path, length: journal.length),
                    encodeSnapshot: { C.encodeDataFile(engine.state.allItems) }))
        } catch {
            Log.line("level=error event=journal-open-failed file=\(journal.path) error=\"\(error)\"")
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
