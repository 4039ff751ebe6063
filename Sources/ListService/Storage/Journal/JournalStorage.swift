import Basics
import Dispatch
import Foundation

/// One collection's files in the state directory: its snapshot, its journal, and the
/// high-water mark of its id sequence.
final class CollectionFiles: @unchecked Sendable {
    // Invariant: `journal`, `isCompacting` and `needsSnapshot` are used only on the writer
    // queue; the background snapshot writer reads only the paths, constants.
    let name: String
    let snapshotPath: String
    /// Holds the highest sequence number ever given out, so ids of deleted items are never
    /// given again after the journal that recorded them is compacted away.
    let sequencePath: String
    /// Holds the keyed writes' answers the journal kept, past its compaction.
    let answersPath: String
    let journal: Journal
    /// Takes the collection's current state (on the writer queue, right after the journal
    /// rotated) and returns what reads its items and encodes them as a snapshot (off the
    /// queue), handing the bytes on a piece at a time.
    let takeSnapshot: () -> SnapshotWriting
    var isCompacting = false
    /// Whether the state directory lacks a binary snapshot (the items were loaded from JSON).
    var needsSnapshot: Bool

    init(
        name: String, snapshotPath: String, sequencePath: String, answersPath: String, journal: Journal, needsSnapshot: Bool = false,
        takeSnapshot: @escaping () -> SnapshotWriting
    ) {
        self.name = name
        self.snapshotPath = snapshotPath
        self.needsSnapshot = needsSnapshot
        self.sequencePath = sequencePath
        self.answersPath = answersPath
        self.journal = journal
        self.takeSnapshot = takeSnapshot
    }
}

/// Encodes a collection's items as a snapshot, handing the bytes to its argument a piece at a time.
typealias SnapshotWriting = @Sendable (_ write: ([UInt8]) -> Void) -> Void

/// The local journal as the service's storage: each collection's snapshot plus its journal
/// replayed at load, every batch appended to the journals of the collections it changes (one
/// fsync each), and compactions between batches. Nothing changes elsewhere. Without a state
/// directory it only reads the data files (what `MemoryStorage` and a new database start from).
package final class JournalStorage: ChangeStorage, @unchecked Sendable {
    // Invariant: `pendingFiles` is set by `load` (before any write); it and `files` are then
    // used only on WriteCoordinator's serial queue (appends, compaction starts, journal trims),
    // so they are never touched by two threads at once.
    private let configuration: StorageConfiguration?
    private var files: [String: CollectionFiles] = [:]
    /// How to make each collection's files once its engine exists (the snapshot is taken from it).
    private var pendingFiles: [(Engines) -> CollectionFiles] = []
    private let compactAfterBytes: Int
    private let log: ServiceLog
    package let status = ReplicationStatus()
    /// Compactions running in the background (see `finishBackgroundWork`).
    private let backgroundWork = DispatchGroup()

    /// Storage on the snapshots and journals `configuration` names.
    package init(_ configuration: StorageConfiguration, log: ServiceLog) {
        self.configuration = configuration
        self.compactAfterBytes = configuration.compactAfterBytes
        self.log = log
    }

    /// Storage on journals already open (none: changes live in memory only), compacting only
    /// when forced.
    init(files: [CollectionFiles], log: ServiceLog) {
        configuration = nil
        compactAfterBytes = .max
        self.log = log
        self.files = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0) })
    }

    package func load() throws(StartupError) -> LoadedCollections {
        guard let configuration else {  // what it holds was given to the service directly
            return LoadedCollections(stores: [], position: 0, sequences: [:], reports: [])
        }
        if let directory = configuration.stateDirectory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StartupError(description: "cannot create the state directory \(directory): \(error.localizedDescription)")
            }
        }
        var opener = JournalOpener(storage: configuration, log: log)
        CollectionRegistry.visitAll(&opener)
        if let error = opener.error { throw error }
        pendingFiles = opener.files
        return LoadedCollections(
            stores: opener.loaded, position: 0, sequences: opener.sequences, reports: opener.reports, answers: opener.answers)
    }

    /// Makes each collection's files, now that its engine exists; writes, in the background,
    /// the snapshots of collections loaded from JSON, so the next start reads binary.
    package func attach(_ host: any StorageHost) {
        host.onWriterQueue {
            for make in self.pendingFiles {
                let file = make(host.engines)
                self.files[file.name] = file
            }
            self.pendingFiles = []
            self.compactIfDue(host: host)
        }
    }

    /// Journals every collection's records (one fsync each). If a journal cannot be written,
    /// the records this batch already wrote to other journals are cut off again and the batch
    /// fails: a refused write leaves nothing behind, not even after a restart.
    package func append(_ changes: [StoredChange], decidedAt position: UInt64) -> AppendOutcome {
        // Which changes go to which journal; each record is framed only as it is written.
        var byCollection: [String: [Int]] = [:]
        var order: [String] = []
        for (index, change) in changes.enumerated() where files[change.collection] != nil {
            if byCollection[change.collection] == nil { order.append(change.collection) }
            byCollection[change.collection, default: []].append(index)
        }
        var written: [(file: CollectionFiles, previousLength: Int)] = []
        for name in order {
            guard let file = files[name], let indices = byCollection[name] else { continue }
            let previousLength = file.journal.length
            do {
                try file.journal.append(Self.records(of: indices.map { changes[$0] }))
                written.append((file, previousLength))
            } catch {
                for (done, length) in written {
                    do {
                        try done.journal.truncate(to: length)
                    } catch {
                        let path = LogFmt.value(done.journal.path)
                        log.line("level=error event=journal-rollback-failed file=\(path) error=\(LogFmt.value(error))")
                    }
                }
                return .failed(source: name, reason: "\(file.journal.path): \(error)")
            }
        }
        return .appended(position: 0)
    }

    package func changes(after position: UInt64, limit: Int) -> ChangesSince { .changes([], head: position) }

    package func betweenBatches(_ host: any StorageHost) { compactIfDue(host: host) }

    /// Writes every collection's snapshot now and trims its journal.
    package func compactNow(_ host: any StorageHost) {
        host.onWriterQueueAndWait { compact(host: host, force: true) }
        host.onWriterQueueAndWait {}  // the trims were queued behind the snapshot writes
    }

    /// Waits until no compaction runs in the background and its journal trims are done.
    package func finishBackgroundWork(_ host: any StorageHost) {
        repeat {
            backgroundWork.wait()
            host.onWriterQueueAndWait {}  // the trims queued by finished compactions, which may start another
        } while backgroundWork.wait(timeout: .now()) == .timedOut
    }

    /// A journal record: `{"op":"upsert","item":…}`, `{"op":"delete","id":…}` or
    /// `{"op":"answer","answer":…}`.
    /// A collection's changes of one batch as framed journal records: one record holding them
    /// all (`{"op":"batch","changes":[…]}`), so that a crash mid-write keeps the whole batch or
    /// none of it (a torn record is dropped at recovery); a batch past `maxGroupedBytes` (an
    /// import of many megabytes) as one record per change, framed as it is written, never
    /// joined into one copy of itself.
    static func records(of changes: [StoredChange]) -> AnySequence<[UInt8]> {
        let size = changes.reduce(0) { $0 + ($1.record?.count ?? 64) }
        guard changes.count > 1, size <= maxGroupedBytes else {
            return AnySequence(changes.lazy.map { Journal.frame(payload(of: $0)) })
        }
        var grouped = Array(#"{"op":"batch","changes":["#.utf8)
        grouped.reserveCapacity(size + 32 * changes.count)
        for (index, change) in changes.enumerated() {
            if index > 0 { grouped.append(UInt8(ascii: ",")) }
            grouped.append(contentsOf: payload(of: change))
        }
        grouped.append(contentsOf: "]}".utf8)
        return AnySequence(CollectionOfOne(Journal.frame(grouped)))
    }

    /// The most bytes of changes written as one record.
    static var maxGroupedBytes: Int { 4 << 20 }

    static func payload(of change: StoredChange) -> [UInt8] {
        if change.isAnswer, let record = change.record {
            return Array(#"{"op":"answer","answer":"#.utf8) + record + [UInt8(ascii: "}")]
        }
        guard let record = change.record else {
            var json = JSONWriter()
            json.beginObject()
            json.key("op")
            json.string("delete")
            json.key("id")
            json.string(change.id)
            json.endObject()
            return json.bytes
        }
        return Array(#"{"op":"upsert","item":"#.utf8) + record + [UInt8(ascii: "}")]
    }

    /// Starts a compaction of each journal past its size limit, and writes each missing snapshot.
    func compactIfDue(host: any StorageHost) { compact(host: host, force: false) }

    /// Compacts without holding up writes: off the writer queue, makes the file appends will
    /// go to; on it, between two writes, switches appends there and takes the state and the
    /// sequence and the answers the journal kept, which is all the queue does; off it again,
    /// copies the items a chunk at a time (a write waits at most for one chunk), encodes and
    /// writes the sequence file, the answers file and the snapshot (temporary file, flushed as
    /// it grows, rename, fsync of the directory), then
    /// renames the new journal file over the old, whose records the snapshot now holds. Records
    /// are whole items replayed in order, so the new journal brings any item the copy saw
    /// before a later change up to date, and a crash between the steps loses nothing.
    func compact(host: any StorageHost, force: Bool) {
        for file in files.values
        where !file.isCompacting
            && (file.needsSnapshot || file.journal.length > 0 && (force || file.journal.length >= compactAfterBytes))
        {
            file.isCompacting = true
            // A rotation a failed compaction left in place is completed by this one; an empty
            // journal (a first snapshot) needs none.
            let completesRotation = file.journal.isRotated || file.journal.length > 0
            let needsNewFile = completesRotation && !file.journal.isRotated
            let log = self.log
            // A forced compaction runs on the writer queue already; a routine one hops onto it.
            let onWriterQueue: @Sendable (() -> Void) -> Void = { body in
                if force { body() } else { host.onWriterQueueAndWait(body) }
            }
            let work: @Sendable () -> Void = {
                do throws(DurableFile.Failure) {
                    let next = needsNewFile ? try Journal.prepareRotation(of: file.journal.path) : nil
                    var taken: (encode: SnapshotWriting, sequence: Int, answers: [RecordedAnswer], dropped: Int, queueTime: Duration)?
                    onWriterQueue {
                        let started = ContinuousClock.now
                        let dropped = file.journal.length
                        if let next { file.journal.rotate(to: next) }
                        let encode = file.takeSnapshot()
                        taken = (
                            encode, host.sequences[file.name] ?? 0, host.answers.answers(keptWith: file.name), dropped,
                            ContinuousClock.now - started
                        )
                    }
                    guard let taken else { return }
                    try DurableFile.replace(file.sequencePath, with: Array("\(taken.sequence)\n".utf8))
                    try DurableFile.replace(file.answersPath, with: taken.answers.map { Journal.frame($0.record) })
                    var snapshotBytes = 0
                    try DurableFile.replace(file.snapshotPath) { write in
                        taken.encode { piece in
                            snapshotBytes += piece.count
                            write(piece)
                        }
                    }
                    let compactedBytes = snapshotBytes
                    if completesRotation { try Journal.completeRotation(of: file.journal.path) }
                    host.onWriterQueue {
                        if completesRotation { file.journal.rotationCompleted() }
                        file.needsSnapshot = false
                        file.isCompacting = false
                        log.line(
                            "level=info event=compacted file=\(LogFmt.value(file.snapshotPath)) bytes=\(compactedBytes) "
                                + "journal_bytes_dropped=\(taken.dropped) writer_queue_ms=\(taken.queueTime.milliseconds)")
                        self.compactIfDue(host: host)  // writes that came meanwhile may be due again
                    }
                } catch {
                    log.line("level=error event=snapshot-failed file=\(LogFmt.value(file.snapshotPath)) error=\(LogFmt.value(error))")
                    host.onWriterQueue { file.isCompacting = false }
                }
            }
            if force { work() } else { DispatchQueue.global(qos: .utility).async(group: backgroundWork, execute: work) }
        }
    }
}

extension StorageConfiguration {
    /// Each collection's first items (the data files, or the embedded data), read in memory
    /// without a state directory: what seeds memory and an empty database.
    package func initialStores(log: ServiceLog) throws(StartupError) -> [any AnyCollectionStore] { try initialLoad(log: log).stores }

    /// The storage this configuration names: the journal in the state directory, or memory
    /// seeded from the data without one (`--in-memory`), keeping at most `answerCapacity` answers.
    package func makeStorage(log: ServiceLog, answerCapacity: Int = AnswerLedger.defaultCapacity) -> any ChangeStorage {
        guard stateDirectory == nil else { return JournalStorage(self, log: log) }
        return MemoryStorage(answerCapacity: answerCapacity) { () throws(StartupError) in try initialLoad(log: log) }
    }

    /// The first items with their start-up report lines.
    private func initialLoad(log: ServiceLog) throws(StartupError) -> LoadedCollections {
        var files = self
        files.stateDirectory = nil
        return try JournalStorage(files, log: log).load()
    }
}
