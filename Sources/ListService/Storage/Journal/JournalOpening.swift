import Foundation

/// Opens each registered collection from its snapshot and journal (`RecoveredCollection`),
/// keeping how to make its files once its engine exists. Stops at the first error.
struct JournalOpener: CollectionVisitor {
    let storage: StorageConfiguration
    let log: ServiceLog
    var loaded: [any AnyCollectionStore] = []
    var files: [(Engines) -> CollectionFiles] = []
    var sequences: [String: Int] = [:]
    var answers: [RecordedAnswer] = []
    var reports: [String] = []
    var error: StartupError?

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        guard error == nil else { return }
        do throws(StartupError) {
            let recovered = try RecoveredCollection<C>.recover(storage, log: log)
            if let path = recovered.journalPath {
                let journal: Journal
                do {
                    journal = try Journal(path: path, length: recovered.journalLength)
                } catch {
                    throw StartupError(description: "cannot open the journal: \(error)")
                }
                let needsSnapshot = recovered.needsSnapshot
                files.append { engines in Self.files(of: engines.engine(C.self), journal: journal, needsSnapshot: needsSnapshot) }
            }
            reports.append(recovered.report)
            loaded.append(recovered.state)
            sequences[C.name] = recovered.highestSequence
            answers += recovered.answers
        } catch {
            self.error = error
        }
    }

    /// The collection's files beside its journal: snapshot, sequence high-water mark, answers.
    private static func files<C: ListCollection>(of engine: CollectionEngine<C>, journal: Journal, needsSnapshot: Bool) -> CollectionFiles {
        let directory = (journal.path as NSString).deletingLastPathComponent as NSString
        return CollectionFiles(
            name: C.name, snapshotPath: directory.appendingPathComponent(SnapshotFile.fileName(C.self)),
            sequencePath: directory.appendingPathComponent(RecoveredCollection<C>.sequenceFileName),
            answersPath: directory.appendingPathComponent(RecoveredCollection<C>.answersFileName), journal: journal,
            needsSnapshot: needsSnapshot,
            takeSnapshot: {
                let state = engine.state
                return { write in SnapshotFile.write(as: C.self, eachItem: { state.forEachItemInChunks($0) }, to: write) }
            })
    }
}
