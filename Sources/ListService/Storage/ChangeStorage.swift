import Foundation

/// Where the service keeps what it acknowledges, in three parts: load everything, append a
/// batch of changes durably, and deliver the changes other processes made. Three
/// implementations, held to one conformance suite (`StorageConformanceTests`): memory
/// (`MemoryStorage`), the local journal (`JournalStorage`: nothing happens elsewhere) and
/// PostgreSQL shared by replicas (`PostgresStorage`). Every call but `load`, `watch`,
/// `compactNow` and `finishBackgroundWork` runs on the writer queue, one at a time.
package protocol ChangeStorage: AnyObject, Sendable {
    /// Every collection's items and the log position they reflect, read consistently.
    func load() throws(StartupError) -> LoadedCollections

    /// Makes `changes` durable, all or none. They were decided on the state at `position`
    /// (the log position this process has applied); storage that others write too answers
    /// `stale` when one of their items changed after it.
    func append(_ changes: [StoredChange], decidedAt position: UInt64) -> AppendOutcome

    /// Changes past `position` in commit order (at most `limit`), made by any process.
    func changes(after position: UInt64, limit: Int) -> ChangesSince

    /// Calls `wake` whenever changes may have been made elsewhere (and now and then anyway),
    /// from a thread of storage's own, until the process ends.
    func watch(_ wake: @escaping @Sendable () -> Void)

    /// Called once the service's writes run through `host` (a journal's files need the engines).
    func attach(_ host: any StorageHost)

    /// Work between batches (a journal's compaction), on the writer queue.
    func betweenBatches(_ host: any StorageHost)

    /// Folds what storage keeps as a log into a snapshot now, where it keeps one (a journal);
    /// returns when done. Not on the writer queue.
    func compactNow(_ host: any StorageHost)

    /// Returns once work storage does in the background is done (at shutdown, so the
    /// process does not exit mid-snapshot).
    func finishBackgroundWork(_ host: any StorageHost)

    /// Where this process stands in the shared log, for `/metrics` (all zero without one).
    var status: ReplicationStatus { get }
}

extension ChangeStorage {
    package func watch(_ wake: @escaping @Sendable () -> Void) {}
    package func attach(_ host: any StorageHost) {}
    package func betweenBatches(_ host: any StorageHost) {}
    package func compactNow(_ host: any StorageHost) {}
    package func finishBackgroundWork(_ host: any StorageHost) {}
}

/// What failures are reported under (`AppendOutcome.failed`, `/health/ready`): a collection's
/// journal by the collection's name, a database shared by replicas as `database`.
package enum StorageSource {
    package static let database = "database"
}

/// One change as storage keeps it: an item's, or a keyed write's answer kept with the
/// changes of the collection it wrote (so both are saved, or neither).
package struct StoredChange: Sendable, Equatable {
    package let collection: String
    /// The item's id, or the answer's `KeyedRequest.ledgerID`.
    package let id: String
    /// The item's JSON record, as its data file holds it (nil: the item was deleted), or the
    /// answer's `RecordedAnswer.record`.
    package let record: [UInt8]?
    /// Whether this is a keyed write's answer rather than an item's change.
    package let isAnswer: Bool

    package init(collection: String, id: String, record: [UInt8]?, isAnswer: Bool = false) {
        self.collection = collection
        self.id = id
        self.record = record
        self.isAnswer = isAnswer
    }

    /// A keyed write's answer, kept with its collection's changes.
    package init(answer: RecordedAnswer) {
        self.init(collection: answer.collection, id: answer.request.ledgerID, record: answer.record, isAnswer: true)
    }
}

/// A change read back from a shared log, with where and when it was committed.
package struct LoggedChange: Sendable {
    package let position: UInt64
    /// Commit time, milliseconds since 1970 (for the replication lag).
    package let committedAt: Int64
    package let change: StoredChange

    package init(position: UInt64, committedAt: Int64, change: StoredChange) {
        self.position = position
        self.committedAt = committedAt
        self.change = change
    }
}

/// What an append came to.
package enum AppendOutcome: Sendable, Equatable {
    /// Durable; `position` is the log's position after the batch's last change (0 where
    /// there is no shared log).
    case appended(position: UInt64)
    /// Another process changed one of the batch's items after it was decided: nothing was
    /// saved; catch up and decide again.
    case stale
    /// Not saved (disk full, database unreachable). `source` is what failed (a collection's
    /// journal, `database`), `reason` why: both for logs and readiness. `mayHaveSaved`: the
    /// connection was lost after the batch was sent, so whether it was committed is unknown.
    case failed(source: String, reason: String, mayHaveSaved: Bool = false)
}

/// What a read of the log past a position found.
package enum ChangesSince: Sendable {
    case changes([LoggedChange], head: UInt64)
    /// The log no longer reaches back to that position (trimmed): load everything again.
    case trimmed
    /// Storage cannot be read now; `reason` is for logs and readiness.
    case failed(reason: String)
}

/// Every collection's state as loaded, the log position it reflects, and the highest id
/// sequence each collection ever gave out (deleted items included).
package struct LoadedCollections: Sendable {
    package let stores: [any AnyCollectionStore]
    package let position: UInt64
    package let sequences: [String: Int]
    /// One line per collection for the start-up log.
    package let reports: [String]
    /// What live-stream tokens carry when storage is shared by replicas (nil: a process of
    /// its own, whose tokens name that process).
    package let sharedEpoch: String?
    /// The keyed writes' answers storage keeps (the ledger drops the expired ones).
    package let answers: [RecordedAnswer]

    package init(
        stores: [any AnyCollectionStore], position: UInt64, sequences: [String: Int], reports: [String], sharedEpoch: String? = nil,
        answers: [RecordedAnswer] = []
    ) {
        self.stores = stores
        self.position = position
        self.sequences = sequences
        self.reports = reports
        self.sharedEpoch = sharedEpoch
        self.answers = answers
    }
}
