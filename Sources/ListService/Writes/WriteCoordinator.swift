import Dispatch
import Foundation
import Basics

/// Every write passes through here, one at a time on one queue: it is checked against the
/// latest state (including earlier writes of its batch), made durable by storage, applied,
/// and only then answered. Writes that arrive while a batch is being saved wait and go
/// together in the next batch (group commit). Changes other processes made (replicas over a
/// shared database) are applied on the same queue, in commit order, so every decision sees
/// one consistent state and the log position it reflects.
package final class WriteCoordinator: StorageHost {
    private let queue = DispatchQueue(label: "listservice.writes")
    private let pending = Locked<Pending>(Pending())
    private let storage: any ChangeStorage
    private let state: QueueState
    package let engines: Engines
    /// Which collections cannot be written right now (for `/health/ready`).
    package let health: StorageHealth
    /// Where this process is in the shared change log (all zero with a local journal).
    package var replication: ReplicationStatus { storage.status }
    /// The keyed writes' answers, kept with the writes they answer.
    package let answers: AnswerLedger
    private let log: ServiceLog
    /// Told each batch's size, so live lists yield the processor to writers that wait.
    private let livePacing: LivePacing

    /// A batch another process keeps making stale is decided again at most this often.
    static let maximumAttempts = 8
    /// Changes read from the shared log at a time while catching up.
    static let catchUpPage = 2_000

    private struct Pending {
        var operations: [@Sendable (inout WriteBatch) -> Void] = []
        /// The traces of the requests that queued them, where their callers trace them.
        var traces: [String] = []
        var isDrainScheduled = false
        var isCatchUpScheduled = false
    }

    /// What only the writer queue touches.
    private final class QueueState: @unchecked Sendable {
        // Invariant: used only on the coordinator's serial queue.
        var sequences: [String: Int]
        var position: UInt64
        init(sequences: [String: Int], position: UInt64) {
            self.sequences = sequences
            self.position = position
        }
    }

    init(
        engines: Engines, storage: any ChangeStorage, sequences: [String: Int], position: UInt64, answers: AnswerLedger, log: ServiceLog,
        livePacing: LivePacing
    ) {
        self.engines = engines
        self.livePacing = livePacing
        self.storage = storage
        self.answers = answers
        self.health = StorageHealth()
        self.log = log
        state = QueueState(sequences: sequences, position: position)
        replication.position.store(position, ordering: .relaxed)
        replication.head.store(position, ordering: .relaxed)
    }

    /// The id sequences (on the writer queue: a compaction records them).
    package var sequences: [String: Int] { state.sequences }

    /// Queues a write. `operation` runs on the writer queue with the batch it belongs to, and
    /// may run again if another process made its batch stale: it must only decide and
    /// register with the batch (`onCommit`, `onSettled`), never answer directly.
    package func submit(_ operation: @escaping @Sendable (inout WriteBatch) -> Void) {
        let trace = RequestTrace.current
        let shouldSchedule = pending.withLock { pending in
            pending.operations.append(operation)
            if let trace { pending.traces.append(trace) }
            defer { pending.isDrainScheduled = true }
            return !pending.isDrainScheduled
        }
        if shouldSchedule { queue.async { self.drain() } }
    }

    /// Runs every queued write as one batch, commits it and answers; then queues itself again,
    /// so work queued meanwhile (a journal trim after a compaction) runs between batches even
    /// under a constant stream of writes.
    private func drain() {
        let (operations, traces) = pending.withLock { pending in
            defer {
                pending.operations.removeAll()
                pending.traces.removeAll()
            }
            if pending.operations.isEmpty { pending.isDrainScheduled = false }
            return (pending.operations, pending.traces)
        }
        guard !operations.isEmpty else { return }
        livePacing.noteBatch(of: operations.count)
        for attempt in 1...Self.maximumAttempts {
            var batch = WriteBatch(engines: engines, sequences: state.sequences, answers: answers)
            for operation in operations { operation(&batch) }
            let changes = batch.storedChanges
            let outcome = changes.isEmpty ? .appended(position: 0) : storage.append(changes, decidedAt: state.position)
            switch outcome {
            case .stale where attempt < Self.maximumAttempts:
                replication.staleBatches.add(1, ordering: .relaxed)
                catchUp()  // then decide again on the state other processes made
                continue
            case .stale:
                batch.settle(
                    .failure(
                        WriteRejection(
                            kind: .storageUnavailable, detail: "Other writers keep changing these items; nothing was changed. Try again.")))
            case .failed(let source, let reason, let mayHaveSaved):
                markFailing(source, event: "\(Self.kind(of: source))-write-failed", reason)
                let detail =
                    mayHaveSaved
                    ? "The connection to the database was lost before it confirmed the change: it may have been saved. Read it back, or send it again under the same Idempotency-Key."
                    : "The change could not be saved; nothing was changed. Try again later."
                batch.settle(.failure(WriteRejection(kind: .storageUnavailable, detail: detail)))
            case .appended(let position):
                markHealthy(batch.collections.values.map(\.name) + batch.recordedAnswers.map(\.collection) + [StorageSource.database])
                if position > 0 {
                    // Others' changes committed between this process's position and the batch come first.
                    let first = position - UInt64(changes.count) + 1
                    if first > state.position + 1 { catchUp(through: first - 1) }
                }
                batch.apply(lastPosition: position)
                if !traces.isEmpty, !changes.isEmpty {
                    let at = position > 0 ? " position=\(position)" : ""
                    log.line("level=info event=commit\(at) changes=\(changes.count) traces=\(traces.joined(separator: ","))")
                }
                if position > 0, state.position + UInt64(changes.count) == position { advance(to: position, committedAt: nil) }
                // A refused batch uses up no id; ids others gave out meanwhile stay used.
                state.sequences.merge(batch.sequences, uniquingKeysWith: max)
                batch.settle(.success(()))
            }
            break
        }
        storage.betweenBatches(self)
        queue.async { self.drain() }
    }

    /// `database`, or `journal` for a collection's journal: what log lines name.
    private static func kind(of source: String) -> String { source == StorageSource.database ? "database" : "journal" }

    /// Marks `source` failing for `/health/ready`, logging `event` when it starts failing
    /// (not for every write or read that finds it still failing).
    private func markFailing(_ source: String, event: String, _ reason: String) {
        guard !health.isFailing(source) else { return }
        health.set(source, failing: reason)
        log.line("level=error event=\(event) source=\(LogFmt.value(source)) error=\(LogFmt.value(reason))")
    }

    private func markHealthy(_ sources: [String]) {
        for source in sources where health.isFailing(source) {
            health.set(source, failing: nil)
            log.line("level=info event=\(Self.kind(of: source))-write-recovered source=\(LogFmt.value(source))")
        }
    }

    // MARK: changes made elsewhere

    /// Applies, soon, the changes other processes committed past this one's position (called
    /// by storage's watcher when it is told of some, and now and then).
    package func catchUpSoon() {
        let shouldSchedule = pending.withLock { pending in
            defer { pending.isCatchUpScheduled = true }
            return !pending.isCatchUpScheduled
        }
        guard shouldSchedule else { return }
        queue.async {
            self.pending.withLock { $0.isCatchUpScheduled = false }
            self.catchUp()
        }
    }

    /// Reads the log past this process's position (up to `limit`) and applies it in commit
    /// order; a log trimmed past the position loads everything again. Stops at a failure,
    /// which `/health/ready` then reports; the next call starts where it stopped.
    private func catchUp(through limit: UInt64 = .max) {
        while state.position < limit {
            switch storage.changes(after: state.position, limit: Self.catchUpPage) {
            case .failed(let reason):
                return markFailing(StorageSource.database, event: "storage-read-failed", reason)
            case .trimmed:
                guard reload() else { return }
            case .changes(let logged, let head):
                markHealthy([StorageSource.database])
                replication.head.store(max(head, state.position), ordering: .relaxed)
                let wanted = logged.prefix { $0.position <= limit }
                guard let last = wanted.last else { return }
                do {
                    try apply(Array(wanted))
                } catch {
                    return markFailing(
                        StorageSource.database, event: "replication-apply-failed", "change \(last.position) cannot be applied: \(error)")
                }
                advance(to: last.position, committedAt: last.committedAt)
                if logged.count < Self.catchUpPage { return }
            }
        }
    }

    /// Applies logged changes, each collection's in their order, in one step per collection;
    /// ids they give out are never given again here. Answers go to the ledger.
    private func apply(_ logged: [LoggedChange]) throws(JSONFieldError) {
        var byCollection: [String: (changes: [StoredChange], last: UInt64)] = [:]
        var recorded: [RecordedAnswer] = []
        for entry in logged {
            if entry.change.isAnswer {
                guard let record = entry.change.record else { continue }
                recorded.append(try RecordedAnswer(record: record, path: "answer at \(entry.position)"))
                continue
            }
            byCollection[entry.change.collection, default: ([], 0)].changes.append(entry.change)
            byCollection[entry.change.collection]?.last = entry.position
        }
        for (name, (changes, last)) in byCollection {
            guard let engine = engines.named(name) else { continue }  // a collection this build does not serve
            let highest = try engine.applyStored(changes, at: last)
            state.sequences[name] = max(state.sequences[name] ?? 0, highest)
        }
        answers.record(recorded)
    }

    /// Replaces every collection's state with storage's (the log was trimmed past this
    /// process's position).
    private func reload() -> Bool {
        do {
            let loaded = try storage.load()
            for store in loaded.stores {
                for engine in engines.all { engine.replaceState(with: store) }
            }
            for (name, sequence) in loaded.sequences { state.sequences[name] = max(state.sequences[name] ?? 0, sequence) }
            answers.replaceAll(with: loaded.answers)
            replication.reloads.add(1, ordering: .relaxed)
            log.line(
                "level=warning event=replica-reloaded position=\(loaded.position) reason=\"the change log was trimmed past this replica's position\""
            )
            advance(to: loaded.position, committedAt: nil)
            return true
        } catch {
            markFailing(StorageSource.database, event: "replica-reload-failed", "\(error)")
            return false
        }
    }

    private func advance(to position: UInt64, committedAt: Int64?) {
        state.position = position
        replication.position.store(position, ordering: .relaxed)
        if replication.head.load(ordering: .relaxed) < position { replication.head.store(position, ordering: .relaxed) }
        if let committedAt {
            let lag = max(0, Int64(Date().timeIntervalSince1970 * 1000) - committedAt)
            replication.lagMilliseconds.store(Int(lag), ordering: .relaxed)
        }
    }

    /// Runs `body` on the writer queue (journal maintenance after a compaction).
    package func onWriterQueue(_ body: @escaping @Sendable () -> Void) { queue.async(execute: body) }

    /// Runs `body` on the writer queue and waits for it.
    package func onWriterQueueAndWait(_ body: () -> Void) { queue.sync(execute: body) }

    /// Waits until storage's background work is done (at shutdown, so the process does not
    /// exit mid-snapshot).
    package func finishBackgroundWork() { storage.finishBackgroundWork(self) }

    /// Writes every collection's snapshot now and trims its journal; returns when done.
    package func compactNow() { storage.compactNow(self) }
}

/// The writes of one batch: what they changed (seen over the engines' state) and what
/// to do once the batch is durable.
package struct WriteBatch {
    let engines: Engines
    var sequences: [String: Int]
    let answers: AnswerLedger
    /// The answers of the batch's keyed writes, saved after its changes.
    private(set) var recordedAnswers: [RecordedAnswer] = []
    /// Each changed collection's changes, under its type.
    var collections: [ObjectIdentifier: any PendingCollectionChanges] = [:]
    var completions: [(Result<Void, WriteRejection>) -> Void] = []
    /// Answers decided before storage (refusals), given once the batch is settled.
    var settled: [() -> Void] = []

    /// The item as the batch sees it: earlier writes in the batch first, then the engine.
    package func item<C: ListCollection>(_ collection: C.Type, id: String) -> C.Item? {
        if let changes = changes(of: C.self), let recorded = changes.latestChange(to: id) {
            switch recorded {
            case .upsert(let item): return item
            case .delete: return nil
            }
        }
        return engines.engine(C.self).state.item(id: id)
    }

    /// Records a change; it is journaled and applied when the batch commits.
    package mutating func record<C: ListCollection>(_ collection: C.Type, _ change: ItemChange<C.Item>) {
        let changes = changes(of: C.self) ?? CollectionChanges<C>(engine: engines.engine(C.self))
        changes.add(change)
        collections[ObjectIdentifier(C.self)] = changes
    }

    /// The batch's changes to `C` so far: the `CollectionChanges<C>` stored under its type.
    private func changes<C: ListCollection>(of collection: C.Type) -> CollectionChanges<C>? {
        collections[ObjectIdentifier(C.self)] as? CollectionChanges<C>
    }

    /// Makes a new item of `C` with the next sequence number, which is used up only when
    /// `make` succeeds: a refused create leaves the sequence as it was.
    package mutating func withNextSequence<C: EditableCollection, Made>(
        _ collection: C.Type, _ make: (Int) -> Result<Made, WriteRejection>
    ) -> Result<Made, WriteRejection> {
        let next = (sequences[C.name] ?? 0) + 1
        let result = make(next)
        if case .success = result { sequences[C.name] = next }
        return result
    }

    /// The answer already recorded for `request` (a retry that another replica, or a process
    /// before a restart, answered), or the refusal of another request under its key; nil when
    /// there is none (or no key).
    package func recordedAnswer(to request: KeyedRequest?) -> Result<RecordedAnswer, WriteRejection>? {
        request.flatMap { answers.answer(to: $0) }
    }

    /// The answer to a keyed write of the batch: saved with the batch's changes, replayed for
    /// retries once the batch commits.
    package mutating func record(answer: RecordedAnswer) { recordedAnswers.append(answer) }

    /// Runs after the batch is durable and applied (success) or refused by storage (failure).
    package mutating func onCommit(_ body: @escaping (Result<Void, WriteRejection>) -> Void) { completions.append(body) }

    /// Runs once the batch is settled, whatever storage did: how a write refused before
    /// storage answers (not at once, since a stale batch is decided again).
    package mutating func onSettled(_ body: @escaping () -> Void) { settled.append(body) }

    /// The batch's changes as storage keeps them, each collection's in order, then the answers.
    var storedChanges: [StoredChange] { collections.values.flatMap(\.storedChanges) + recordedAnswers.map(StoredChange.init(answer:)) }

    /// Applies every collection's changes and files the answers; `lastPosition` is the log
    /// position storage gave the batch's last change (0 without a shared log), laid out as
    /// `storedChanges` lists them.
    func apply(lastPosition: UInt64) {
        let total = collections.values.reduce(recordedAnswers.count) { $0 + $1.storedChanges.count }
        var applied = 0
        for changes in collections.values {
            applied += changes.storedChanges.count
            changes.apply(at: lastPosition == 0 ? 0 : lastPosition - UInt64(total - applied))
        }
        answers.record(recordedAnswers)
    }

    func settle(_ outcome: Result<Void, WriteRejection>) {
        for answer in settled { answer() }
        for completion in completions { completion(outcome) }
    }
}

/// A batch's changes to one collection, type-erased for the batch.
protocol PendingCollectionChanges: AnyObject {
    var name: String { get }
    var storedChanges: [StoredChange] { get }
    func apply(at position: UInt64)
}

/// A batch's changes to collection `C`.
final class CollectionChanges<C: ListCollection>: PendingCollectionChanges {
    let engine: CollectionEngine<C>
    private(set) var changes: [ItemChange<C.Item>] = []
    /// Where in `changes` each changed item's latest change is (not a copy of the item: an
    /// import of a whole feed would hold every item twice).
    private var latest: [String: Int] = [:]
    private(set) var storedChanges: [StoredChange] = []

    init(engine: CollectionEngine<C>) { self.engine = engine }

    var name: String { C.name }

    /// The batch's latest change to the item `id`, if any.
    func latestChange(to id: String) -> ItemChange<C.Item>? { latest[id].map { changes[$0] } }

    func add(_ change: ItemChange<C.Item>) {
        switch change {
        case .upsert(let item):
            latest[C.id(of: item)] = changes.count
            storedChanges.append(StoredChange(collection: C.name, id: C.id(of: item), record: C.record(of: item)))
        case .delete(let id):
            latest[id] = changes.count
            storedChanges.append(StoredChange(collection: C.name, id: id, record: nil))
        }
        changes.append(change)
    }

    func apply(at position: UInt64) { engine.apply(changes, at: position) }
}
