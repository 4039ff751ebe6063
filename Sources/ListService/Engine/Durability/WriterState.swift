import Dispatch
import Foundation

/// One collection's files in the state directory: its data file (the snapshot) and its journal.
final class CollectionFiles: @unchecked Sendable {
    // Invariant: `journal`, `isCompacting` and `encodeSnapshot` are used only on the write
    // coordinator's queue; the background snapshot writer reads only `dataPath`, a constant.
    let name: String
    let dataPath: String
    let journal: Journal
    /// Encodes the collection's current items as a data file (read on the writer queue).
    let encodeSnapshot: () -> [UInt8]
    var isCompacting = false

    init(name: String, dataPath: String, journal: Journal, encodeSnapshot: @escaping () -> [UInt8]) {
        self.name = name
        self.dataPath = dataPath
        self.journal = journal
        self.encodeSnapshot = encodeSnapshot
    }
}

/// What the writer queue owns: the journals and the id sequences.
final class WriterState: @unchecked Sendable {
    // Invariant: every property is used only on WriteCoordinator's serial queue (commits,
    // compaction starts, journal trims), so it is never touched by two threads at once.
    private var files: [String: CollectionFiles]
    private let compactAfterBytes: Int
    var sequences: [String: Int]

    init(files: [CollectionFiles], compactAfterBytes: Int, sequences: [String: Int]) {
        self.files = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0) })
        self.compactAfterBytes = compactAfterBytes
        self.sequences = sequences
    }

    /// Journals every collection's records (one fsync each), then applies the changes. If a
    /// journal cannot be written nothing is applied and every write of the batch fails.
    func commit(_ collections: [any PendingCollectionChanges]) -> Result<Void, WriteRejection> {
        for changes in collections where !changes.journalPayloads.isEmpty {
            guard let file = files[changes.name] else { continue }  // in memory
            do {
                try file.journal.append(changes.journalPayloads.map(Journal.frame))
            } catch {
                Log.line("level=error event=journal-write-failed file=\(file.journal.path) error=\"\(error)\"")
                return .failure(WriteRejection(kind: .storageFailed, detail: "The change could not be saved."))
            }
        }
        for changes in collections { changes.apply() }
        return .success(())
    }

    /// Starts a compaction of each journal past its size limit.
    func compactIfDue(coordinator: WriteCoordinator) { compact(coordinator: coordinator, force: false) }

    /// Snapshots the current items (consistent: no write runs meanwhile on this queue), writes
    /// the data file in the background (temporary file, fsync, rename, fsync of the directory),
    /// then drops the journal records the snapshot holds. Replaying a record that a snapshot
    /// already holds changes nothing, so a crash between the two steps loses nothing.
    func compact(coordinator: WriteCoordinator, force: Bool) {
        for file in files.values where !file.isCompacting && file.journal.length > 0 && (force || file.journal.length >= compactAfterBytes) {
            file.isCompacting = true
            let bytes = file.encodeSnapshot()
            let covered = file.journal.length
            let work: @Sendable () -> Void = {
                do {
                    try DurableFile.replace(file.dataPath, with: bytes)
                    coordinator.onWriterQueue {
                        do {
                            try file.journal.dropPrefix(covered)
                            Log.line("level=info event=compacted file=\(file.dataPath) bytes=\(bytes.count) journal_bytes_dropped=\(covered)")
                        } catch {
                            Log.line("level=error event=journal-trim-failed file=\(file.journal.path) error=\"\(error)\"")
                        }
                        file.isCompacting = false
                    }
                } catch {
                    Log.line("level=error event=snapshot-failed file=\(file.dataPath) error=\"\(error)\"")
                    coordinator.onWriterQueue { file.isCompacting = false }
                }
            }
            // A forced compaction writes synchronously; a routine one does not hold up writes.
            if force { work() } else { DispatchQueue.global(qos: .utility).async(execute: work) }
        }
    }
}
