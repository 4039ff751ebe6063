/// One item of a bulk action (`POST /{name}/actions/{action}`): its id and, if the client
/// read it, the version it read (`ifMatch`).
package struct BulkItem: Sendable {
    package let id: String
    package let condition: VersionCondition?

    package init(id: String, condition: VersionCondition?) {
        self.id = id
        self.condition = condition
    }
}

/// The most items one bulk action takes.
package let maxBulkItems = 500

extension EditableCollection {
    /// The bulk actions the collection offers beyond `delete` (which every editable collection
    /// has), each the edit it makes on every item it names.
    static var bulkEdits: [String: ItemEdit] {
        Dictionary(uniqueKeysWithValues: actions.map { ($0, ItemEdit.action($0)) }).merging(extraBulkEdits) { $1 }
            .merging(["delete": .delete]) { $1 }
    }
}

extension ItemWrites {
    /// Makes `edit` on each of `items`, each decided on its own as a single edit is (found in
    /// the caller's scope, allowed, valid in its state, `ifMatch` current); every accepted
    /// change is saved in one durable batch (one journal append, one commit), and applied in
    /// one step, so a watched list gets one event for all of them. `report` gets each item's
    /// outcome in the order given, once the batch is settled.
    func bulk(
        _ edit: ItemEdit, items: [BulkItem], display: DisplayContext, caller: Caller,
        then report: @escaping @Sendable ([WriteOutcome<C.Item>]) -> Void
    ) {
        let engine = self.engine
        let context = EditContext(now: engine.now, timeZoneIdentifier: display.timeZoneIdentifier, caller: caller)
        let access = C.readScope(for: caller)
        writes.submit { batch in
            var outcomes: [WriteOutcome<C.Item>] = []
            var changed = 0
            for bulkItem in items {
                let outcome = Self.decide(
                    edit, on: bulkItem.id, condition: bulkItem.condition, in: batch, access: access, caller: caller, context: context,
                    engine: engine)
                if Self.record(outcome, of: bulkItem.id, in: &batch) { changed += 1 }
                outcomes.append(outcome)
            }
            guard changed > 0 else { return batch.onSettled { [outcomes] in report(outcomes) } }
            batch.onCommit { [outcomes] committed in
                switch committed {
                case .success: report(outcomes)
                case .failure(let rejection):
                    // Nothing of the batch was saved: every accepted item is refused with storage's reason.
                    report(
                        outcomes.map { outcome in
                            switch outcome {
                            case .updated, .deleted: .refused(rejection)
                            default: outcome
                            }
                        })
                }
            }
        }
    }
}
