import Dispatch
import Foundation

/// One collection's files in the state directory: its snapshot, its journal, and the
/// high-water mark of its id sequence.
final class CollectionFiles: @unchecked Sendable {
    // Invariant: `journal`, `isCompacting` and `needsSnapshot` are used only on the write
    // coordinator's queue; the background snapshot writer reads only the paths, constants.
    let name: String
    let snapshotPath: String
    /// Holds the highest sequence number ever given out, so ids of deleted items are never
    /// given again after the journal that recorded them is compacted away.
    let sequencePath: String
    let journal: Journal
    /// Takes the collection's current items (on the writer queue, so no write runs
    /// meanwhile) and returns what encodes them as a snapshot (run off the queue).
    let takeSnapshot: () -> @Sendable () -> [[UInt8]]
    var isCompacting = false
    /// Whether the state directory lacks a binary snapshot (the items were loaded from JSON).
    var needsSnapshot: Bool

    init(
        name: String, snapshotPath: String, sequencePath: String, journal: Journal, needsSnapshot: Bool = false,
        takeSnapshot: @escaping () -> @Sendable () -> [[UInt8]]
    ) {
        self.name = name
        self.snapshotPath = snapshotPath
        self.needsSnapshot = needsSnapshot
        self.sequencePath = sequencePath
        self.journal = journal
        self.takeSnapshot = takeSnapshot
    }
}

/// What the writer queue owns: the journals and the id sequences.
final class WriterState: @unchecked Sendable {
    // Invariant: every property is used only on WriteCoordinator's serial queue (commits,
    // compaction starts, journal trims), so it is never touched by two threads at once.
    private var files: [String: CollectionFiles]
    private let compactAfterBytes: Int
    private let log: ServiceLog
    /// Reports which collections cannot be written, for readiness checks on other threads.
    private let health: StorageHealth
    /// Compactions running in the background (see `WriteCoordinator.finishBackgroundWork`).
    let backgroundWork = DispatchGroup()
    var sequences: [String: Int]

    init(files: [CollectionFiles], compactAfterBytes: Int, sequences: [String: Int], log: ServiceLog, health: StorageHealth) {
        self.files = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0) })
        self.compactAfterBytes = compactAfterBytes
        self.sequences = sequences
        self.log = log
        self.health = health
    }

    /// Journals every collection's records (one fsync each), then applies the changes. If a
    /// journal cannot be written, the records this batch already wrote to other journals are
    /// cut off again, nothing is applied and every write of the batch fails: a refused write
    /// leaves nothing behind, not even after a restart.
    func commit(_ collections: [any PendingCollectionChanges]) -> Result<Void, WriteRejection> {
        var written: [(file: CollectionFiles, previousLength: Int)] = []
        for changes in collections where !changes.journalPayloads.isEmpty {
            guard let file = files[changes.name] else { continue }  // in memory
            let previousLength = file.journal.length
            do {
                try file.journal.append(changes.journalPayloads.map(Journal.frame))
                written.append((file, previousLength))
            } catch {
                for (done, length) in written {
                    do {
                        try done.journal.truncate(to: length)
                    } catch {
                        log.line("level=error event=journal-rollback-failed file=\(done.journal.path) error=\"\(error)\"")
                    }
                }
                if !health.isFailing(file.name) {
                    health.set(file.name, failing: "\(error)")
                    log.line("level=error event=journal-write-failed file=\(file.journal.path) error=\"\(error)\"")
                }
                return .failure(
                    WriteRejection(
                        kind: .storageUnavailable, detail: "The change could not be saved; nothing was changed. Try again later."))
            }
        }
        for (file, _) in written where health.isFailing(file.name) {
            health.set(file.name, failing: nil)
            log.line("level=info event=journal-write-recovered file=\(file.journal.path)")
        }
        for changes in collections { changes.apply() }
        return .success(())
    }

    /// Starts a compaction of each journal past its size limit, and writes each missing snapshot.
    func compactIfDue(coordinator: WriteCoordinator) { compact(coordinator: coordinator, force: false) }

    /// Takes the current items and sequence (consistent: no write runs meanwhile on this
    /// queue), then, off the queue, encodes them and writes the sequence file and the data
    /// file (temporary file, fsync, rename, fsync of the directory), and finally drops the
    /// journal records the snapshot holds. Replaying a record that a snapshot already holds
    /// changes nothing, so a crash between the steps loses nothing.
    func compact(coordinator: WriteCoordinator, force: Bool) {
        for file in files.values
        where !file.isCompacting
            && (file.needsSnapshot || file.journal.length > 0 && (force || file.journal.length >= compactAfterBytes))
        {
            file.isCompacting = true
            let encodeSnapshot = file.takeSnapshot()
            let covered = file.journal.length
            let sequence = sequences[file.name] ?? 0
            let log = self.log
            let work: @Sendable () -> Void = {
                do {
                    let parts = encodeSnapshot()
                    try DurableFile.replace(file.sequencePath, with: Array("\(sequence)\n".utf8))
                    try DurableFile.replace(file.snapshotPath, with: parts)
                    coordinator.onWriterQueue {
                        file.needsSnapshot = false
                        do {
                            try file.journal.dropPrefix(covered)
                            log.line(
                                "level=info event=compacted file=\(file.snapshotPath) bytes=\(parts.reduce(0) { $0 + $1.count }) journal_bytes_dropped=\(covered)"
                            )
                        } catch {
                            log.line("level=error event=journal-trim-failed file=\(file.journal.path) error=\"\(error)\"")
                        }
                        file.isCompacting = false
                        self.compactIfDue(coordinator: coordinator)  // writes that came meanwhile may be due again
                    }
                } catch {
                    log.line("level=error event=snapshot-failed file=\(file.snapshotPath) error=\"\(error)\"")
                    coordinator.onWriterQueue { file.isCompacting = false }
                }
            }
            // A forced compaction writes synchronously; a routine one does not hold up writes.
            if force { work() } else { DispatchQueue.global(qos: .utility).async(group: backgroundWork, execute: work) }
        }
    }
}
