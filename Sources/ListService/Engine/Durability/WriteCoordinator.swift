import Dispatch
import Foundation
import Basics

/// Every write passes through here, one at a time on one queue: it is checked against the
/// latest state (including earlier writes of its batch), journaled, and answered only once its
/// record is on disk. Writes that arrive while a batch is being synced wait and go together in
/// the next batch, sharing one fsync per collection (group commit).
package final class WriteCoordinator: Sendable {
    private let queue = DispatchQueue(label: "listservice.writes")
    private let pending = Locked<Pending>(Pending())
    private let writer: WriterState
    let engines: Engines
    /// Which collections cannot be written right now (for `/health/ready`).
    package let health: StorageHealth

    private struct Pending {
        var operations: [@Sendable (inout WriteBatch) -> Void] = []
        var isDrainScheduled = false
    }

    init(engines: Engines, files: [CollectionFiles], compactAfterBytes: Int, sequences: [String: Int], log: ServiceLog) {
        self.engines = engines
        let health = StorageHealth()
        self.health = health
        self.writer = WriterState(files: files, compactAfterBytes: compactAfterBytes, sequences: sequences, log: log, health: health)
    }

    /// Queues a write. `operation` runs on the writer queue with the batch it belongs to;
    /// whatever it registers with `WriteBatch.onCommit` runs once the batch is durable.
    package func submit(_ operation: @escaping @Sendable (inout WriteBatch) -> Void) {
        let shouldSchedule = pending.withLock { pending in
            pending.operations.append(operation)
            defer { pending.isDrainScheduled = true }
            return !pending.isDrainScheduled
        }
        if shouldSchedule { queue.async { self.drain() } }
    }

    /// Runs every queued write as one batch, commits it and answers; then queues itself again,
    /// so work queued meanwhile (a journal trim after a compaction) runs between batches even
    /// under a constant stream of writes.
    private func drain() {
        let operations = pending.withLock { pending in
            defer { pending.operations.removeAll() }
            if pending.operations.isEmpty { pending.isDrainScheduled = false }
            return pending.operations
        }
        guard !operations.isEmpty else { return }
        var batch = WriteBatch(engines: engines, sequences: writer.sequences)
        for operation in operations { operation(&batch) }
        let outcome = writer.commit(Array(batch.collections.values))
        if case .success = outcome { writer.sequences = batch.sequences }  // a refused batch uses up no id
        for completion in batch.completions { completion(outcome) }
        writer.compactIfDue(coordinator: self)
        queue.async { self.drain() }
    }

    /// Runs `body` on the writer queue (journal maintenance after a compaction).
    func onWriterQueue(_ body: @escaping @Sendable () -> Void) { queue.async(execute: body) }

    /// Waits until no compaction runs in the background and its journal trims are done (at
    /// shutdown, so the process does not exit mid-snapshot).
    package func finishBackgroundWork() {
        repeat {
            writer.backgroundWork.wait()
            queue.sync {}  // the trims queued by finished compactions, which may start another
        } while writer.backgroundWork.wait(timeout: .now()) == .timedOut
    }

    /// Writes, in the background, the snapshot of each collection loaded from JSON, so the next
    /// start reads binary; readiness does not wait for it.
    func writeMissingSnapshots() { queue.async { self.writer.compactIfDue(coordinator: self) } }

    /// Writes every collection's snapshot now and trims its journal; returns when done.
    package func compactNow() {
        queue.sync { writer.compact(coordinator: self, force: true) }
        queue.sync {}  // the trims were queued behind the snapshot writes
    }
}

/// The writes of one batch: what they changed (an overlay over the engines' state) and what
/// to do once the batch is durable.
package struct WriteBatch {
    let engines: Engines
    var sequences: [String: Int]
    /// Each changed collection's changes, under its type.
    var collections: [ObjectIdentifier: any PendingCollectionChanges] = [:]
    var completions: [(Result<Void, WriteRejection>) -> Void] = []

    /// The item as the batch sees it: earlier writes in the batch first, then the engine.
    package func item<C: ListCollection>(_ collection: C.Type, id: String) -> C.Item? {
        if let changes = changes(of: C.self), let overlaid = changes.overlay[id] { return overlaid }
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

    /// Runs after the batch is durable and applied (success) or refused by storage (failure).
    package mutating func onCommit(_ body: @escaping (Result<Void, WriteRejection>) -> Void) { completions.append(body) }
}

/// A batch's changes to one collection, type-erased for the batch.
protocol PendingCollectionChanges: AnyObject {
    var name: String { get }
    var journalPayloads: [[UInt8]] { get }
    func apply()
}

/// A batch's changes to collection `C`.
final class CollectionChanges<C: ListCollection>: PendingCollectionChanges {
    let engine: CollectionEngine<C>
    private(set) var changes: [ItemChange<C.Item>] = []
    private(set) var overlay: [String: C.Item?] = [:]
    private(set) var journalPayloads: [[UInt8]] = []

    init(engine: CollectionEngine<C>) { self.engine = engine }

    var name: String { C.name }

    func add(_ change: ItemChange<C.Item>) {
        changes.append(change)
        var json = JSONWriter()
        json.beginObject()
        switch change {
        case .upsert(let item):
            overlay[C.id(of: item)] = .some(item)
            json.key("op")
            json.string("upsert")
            json.key("item")
            C.writeItem(item, to: &json)
        case .delete(let id):
            overlay[id] = .some(nil)
            json.key("op")
            json.string("delete")
            json.key("id")
            json.string(id)
        }
        json.endObject()
        journalPayloads.append(json.bytes)
    }

    func apply() { engine.apply(changes) }
}
