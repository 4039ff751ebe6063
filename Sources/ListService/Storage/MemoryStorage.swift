import Basics

/// Storage that keeps what it acknowledges in this process's memory only (`--in-memory`, and
/// services made over items directly). It starts from what `seed` loads (the data files, the
/// embedded data) and keeps the latest record of each item changed since, so a later
/// `load` sees every acknowledged change, as a journal's would: that costs one record per
/// changed item, and one per keyed write's answer up to the answers the ledger keeps (the
/// oldest go first, as a journal's compaction lets them go), never more. Nothing happens elsewhere.
package final class MemoryStorage: ChangeStorage {
    private let seed: @Sendable () throws(StartupError) -> LoadedCollections
    private let kept: Locked<Kept>
    package let status = ReplicationStatus()

    private struct Kept {
        /// Each collection's changed items by id, in the order first changed: the record, or
        /// nil for a deleted item.
        var records: [String: [(id: String, record: [UInt8]?)]] = [:]
        /// Where each changed item's entry is in `records`.
        var places: [String: [String: Int]] = [:]
        /// The keyed writes' answers by ledger id, the oldest let go past the ledger's capacity
        /// (the ledger drops expired ones at load).
        var answers: LRUCache<String, [UInt8]>
    }

    package init(
        answerCapacity: Int = AnswerLedger.defaultCapacity, seed: @escaping @Sendable () throws(StartupError) -> LoadedCollections
    ) {
        kept = Locked(Kept(answers: LRUCache(capacity: answerCapacity)))
        self.seed = seed
    }

    package func load() throws(StartupError) -> LoadedCollections {
        let seeded = try seed()
        let (records, keptAnswers) = kept.withLock { ($0.records, $0.answers) }
        guard !records.isEmpty || keptAnswers.count > 0 else { return seeded }
        var answers: [RecordedAnswer] = []
        for (id, record) in keptAnswers.entries {
            do {
                answers.append(try RecordedAnswer(record: record, path: "answer \(id)"))
            } catch {
                throw StartupError(description: "a kept answer cannot be read: \(error)")
            }
        }
        var replay = MemoryReplay(stores: seeded.stores, records: records)
        CollectionRegistry.visitAll(&replay)
        if let error = replay.error { throw error }
        return LoadedCollections(
            stores: replay.replayed, position: 0, sequences: seeded.sequences.merging(replay.sequences, uniquingKeysWith: max),
            reports: seeded.reports, answers: answers)
    }

    package func append(_ changes: [StoredChange], decidedAt position: UInt64) -> AppendOutcome {
        kept.withLock { kept in
            for change in changes {
                if change.isAnswer {
                    if let record = change.record { kept.answers.insert(change.id, record, cost: 0) }
                    continue
                }
                if let place = kept.places[change.collection]?[change.id] {
                    kept.records[change.collection, default: []][place].record = change.record
                } else {
                    kept.places[change.collection, default: [:]][change.id] = kept.records[change.collection, default: []].count
                    kept.records[change.collection, default: []].append((change.id, change.record))
                }
            }
        }
        return .appended(position: 0)
    }

    package func changes(after position: UInt64, limit: Int) -> ChangesSince { .changes([], head: position) }
}

/// The seeded stores with the kept records applied, each collection with its own type.
private struct MemoryReplay: CollectionVisitor {
    let stores: [any AnyCollectionStore]
    let records: [String: [(id: String, record: [UInt8]?)]]
    var replayed: [any AnyCollectionStore] = []
    /// The highest id sequence each collection gave out, deleted items included.
    var sequences: [String: Int] = [:]
    var error: StartupError?

    mutating func visit<C: ListCollection>(_ collection: C.Type) {
        guard error == nil else { return }
        let seeded = stores.lazy.compactMap { $0 as? CollectionState<C> }.first
        guard let changes = records[C.name], !changes.isEmpty else {
            if let seeded { replayed.append(seeded) }
            return
        }
        var replay = ItemReplay<C>(seeded?.allItems ?? [])
        for change in changes {
            guard let record = change.record else {
                replay.delete(id: change.id)
                continue
            }
            do throws(JSONFieldError) {
                replay.upsert(try C.decodeRecord(record, path: "\(C.name) \(change.id)"))
            } catch {
                self.error = StartupError(description: "a kept change cannot be read: \(error)")
                return
            }
        }
        sequences[C.name] = replay.highestSequence
        replayed.append(CollectionState<C>(items: replay.result))
    }
}
