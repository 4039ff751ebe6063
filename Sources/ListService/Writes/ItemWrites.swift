/// A change a client asks of an existing item.
package enum ItemEdit: Sendable {
    /// A JSON merge patch (RFC 7396) of the editable fields.
    case patch(JSONObject)
    /// A named state change (`complete`, `tap`).
    case action(String)
    case delete
}

/// What a write did. Created, updated and deleted items are durable when the outcome is
/// reported; `unchanged` was never written (the change would not alter the item).
package enum WriteOutcome<Item: Sendable>: Sendable {
    case created(Item)
    case updated(Item)
    case unchanged(Item)
    case deleted
    case refused(WriteRejection)
    /// A keyed write's answer, durable with the write (`replayed`: recorded by an earlier
    /// request under the key, nothing was done now).
    case answered(RecordedAnswer, replayed: Bool)

    /// A key's earlier answer, or the refusal of another request under it.
    init(replaying recorded: Result<RecordedAnswer, WriteRejection>) {
        switch recorded {
        case .success(let answer): self = .answered(answer, replayed: true)
        case .failure(let rejection): self = .refused(rejection)
        }
    }
}

/// The write flow of collection `C`: look up, let the collection decide, check the
/// precondition, skip what changes nothing, save; the outcome is reported once the batch is
/// settled (a refusal too: a batch other replicas made stale is decided again).
struct ItemWrites<C: EditableCollection>: Sendable {
    let engine: CollectionEngine<C>
    let writes: WriteCoordinator

    /// Creates an item from a create body: validated, given the next id, journaled. A keyed
    /// create runs once per key (`AnswerLedger`).
    func create(
        from body: JSONObject, display: DisplayContext, caller: Caller, keyed: KeyedRequest?,
        then report: @escaping @Sendable (WriteOutcome<C.Item>) -> Void
    ) {
        if let refusal = C.createRefusal(by: caller) { return report(.refused(refusal)) }
        guard let report = writes.answers.admitting(keyed, report, answered: WriteOutcome.init(replaying:)) else { return }
        let context = editContext(for: display, caller: caller)
        let engine = self.engine
        let access = C.readScope(for: caller)
        writes.submit { batch in
            if let recorded = batch.recordedAnswer(to: keyed) { return batch.onSettled { report(WriteOutcome(replaying: recorded)) } }
            switch batch.withNextSequence(C.self, { C.makeItem(from: body, sequence: $0, context: context) }) {
            case .failure(let rejection):
                batch.onSettled { report(.refused(rejection)) }
            case .success(let item):
                batch.record(C.self, .upsert(item))
                engine.commit(.created(item), keyed: keyed, display: display, access: access, in: &batch, then: report)
            }
        }
    }

    /// Edits the item `id` as `decide` decides; a change that alters nothing is not written.
    func edit(
        id: String, _ edit: ItemEdit, condition: VersionCondition?, display: DisplayContext, caller: Caller, keyed: KeyedRequest?,
        then report: @escaping @Sendable (WriteOutcome<C.Item>) -> Void
    ) {
        guard let report = writes.answers.admitting(keyed, report, answered: WriteOutcome.init(replaying:)) else { return }
        let engine = self.engine
        let context = editContext(for: display, caller: caller)
        let access = C.readScope(for: caller)
        writes.submit { batch in
            if let recorded = batch.recordedAnswer(to: keyed) { return batch.onSettled { report(WriteOutcome(replaying: recorded)) } }
            let outcome = Self.decide(
                edit, on: id, condition: condition, in: batch, access: access, caller: caller, context: context, engine: engine)
            // A change is written; nothing to write but a keyed write still saves its answer, so
            // that a retry gets this one.
            let isUnchanged = if case .unchanged = outcome { true } else { false }
            if Self.record(outcome, of: id, in: &batch) || (isUnchanged && keyed != nil) {
                engine.commit(outcome, keyed: keyed, display: display, access: access, in: &batch, then: report)
            } else {
                batch.onSettled { report(outcome) }
            }
        }
    }

    /// What `edit` on the item `id` comes to, decided in `batch` (which records nothing here):
    /// the item looked up (404, also for one the caller cannot see), the collection asked
    /// whether the caller may (403), then whether it can (422, 409), then `condition` checked
    /// (412); the body is judged first, so a precondition only decides whether a valid change
    /// may go ahead. `unchanged` when the change would alter nothing; else `updated` or
    /// `deleted`, for the caller to record.
    static func decide(
        _ edit: ItemEdit, on id: String, condition: VersionCondition?, in batch: WriteBatch, access: AccessScope, caller: Caller,
        context: EditContext, engine: CollectionEngine<C>
    ) -> WriteOutcome<C.Item> {
        guard let item = batch.item(C.self, id: id), access.admits(C.owner(of: item)) else {
            return .refused(.notFound("\(C.itemName) with id '\(id)'"))
        }
        if let refusal = C.editRefusal(edit, on: item, by: caller) { return .refused(refusal) }
        let decided: Result<C.Item?, WriteRejection>
        switch edit {
        case .patch(let body): decided = C.patch(item, with: body, context: context).map { $0 }
        case .action(let name): decided = C.perform(name, on: item).map { $0 }
        case .delete: decided = .success(nil)
        }
        let changed: C.Item?
        switch decided {
        case .failure(let rejection): return .refused(rejection)
        case .success(let item): changed = item
        }
        let version = engine.version(of: item)
        if let condition, !condition.admits(version) {
            return .refused(.stale("The \(C.itemName) '\(id)' changed since its version was read; fetch it again."))
        }
        guard let changed else { return .deleted }
        return engine.version(of: changed) == version ? .unchanged(item) : .updated(changed)
    }

    /// Records the change `decide` came to for the item `id` in `batch`; false when there is
    /// none (refused or unchanged).
    static func record(_ outcome: WriteOutcome<C.Item>, of id: String, in batch: inout WriteBatch) -> Bool {
        switch outcome {
        case .updated(let item): batch.record(C.self, .upsert(item))
        case .deleted: batch.record(C.self, .delete(id: id))
        default: return false
        }
        return true
    }

    /// What the collection judges a write from `display`'s client with.
    private func editContext(for display: DisplayContext, caller: Caller) -> EditContext {
        EditContext(now: engine.now, timeZoneIdentifier: display.timeZoneIdentifier, caller: caller)
    }

    /// The outcome with the row a client of `display` who sees `access` gets for it: a committed
    /// item's row as every later read serves it, an unchanged item's formatted now.
    func answer(_ outcome: WriteOutcome<C.Item>, display: DisplayContext, access: AccessScope) -> WriteAnswer {
        func committedRow(_ item: C.Item) -> Result<ListPage, WriteRejection> {
            do {
                return .success(try engine.row(id: C.id(of: item), display: display, access: access).0)
            } catch {
                return .failure(.notFound("\(C.itemName) with id '\(C.id(of: item))'"))  // deleted by a later write of its batch
            }
        }
        switch outcome {
        case .created(let item):
            switch committedRow(item) {
            case .success(let row): return .created(id: C.id(of: item), row: row)
            case .failure(let rejection): return .refused(rejection)
            }
        case .updated(let item):
            switch committedRow(item) {
            case .success(let row): return .updated(row: row)
            case .failure(let rejection): return .refused(rejection)
            }
        case .unchanged(let item): return .unchanged(row: engine.formattedRow(item, display: display, access: access))
        case .deleted: return .deleted
        case .refused(let rejection): return .refused(rejection)
        case .answered(let answer, let replayed): return .recorded(answer, replayed: replayed)
        }
    }
}

extension CollectionEngine {
    /// Reports `outcome` once the batch commits. A keyed write's answer is made now, from the
    /// item as written (the row every later read by the writer, who sees `access`, serves), and
    /// saved with the batch; the report is that answer.
    fileprivate func commit(
        _ outcome: WriteOutcome<C.Item>, keyed: KeyedRequest?, display: DisplayContext, access: AccessScope,
        in batch: inout WriteBatch,
        then report: @escaping @Sendable (WriteOutcome<C.Item>) -> Void
    ) {
        guard let keyed else { return batch.onCommit { committed in report(committed.map { outcome }) } }
        let recorded: RecordedAnswer.Outcome
        var item: C.Item?
        switch outcome {
        case .created(let written): (recorded, item) = (.created, written)
        case .updated(let written): (recorded, item) = (.updated, written)
        case .unchanged(let written): (recorded, item) = (.unchanged, written)
        case .deleted, .refused, .answered: recorded = .deleted  // only a deletion comes here besides the three
        }
        let row = item.map { formattedRow($0, display: display, access: access) }
        let answer = RecordedAnswer(
            request: keyed, collection: C.name, outcome: recorded, itemID: item.map(C.id(of:)), etag: row?.etag, body: row?.body ?? [],
            recordedAt: batch.answers.now)
        batch.record(answer: answer)
        batch.onCommit { committed in report(committed.map { .answered(answer, replayed: false) }) }
    }
}

extension Result where Failure == WriteRejection {
    /// The outcome of a commit: `success` once durable, else storage's refusal.
    fileprivate func map<Item>(_ success: () -> WriteOutcome<Item>) -> WriteOutcome<Item> {
        switch self {
        case .success: success()
        case .failure(let rejection): .refused(rejection)
        }
    }
}
