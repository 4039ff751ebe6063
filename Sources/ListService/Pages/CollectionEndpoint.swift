/// One collection's operations for a front door (the HTTP binding), with the collection's
/// type erased at the boundary. Each closure is made inside the core for the concrete
/// collection, so everything under it (filter, sort, format, journal) is specialized for that
/// collection: generic code called from another module would run unspecialized (cold lists
/// took twice as long).
package struct CollectionEndpoint: Sendable {
    /// The path segment and name: `orders` serves `/orders`.
    package let name: String
    /// Whether the collection also serves map markers (`/{name}/map`).
    package let hasMap: Bool
    /// The page of `request` for a session's list or map; with no session, from the shared
    /// caches and kept nowhere.
    package let page: @Sendable (ListRequest, Session?, ListPurpose) throws(ListServiceError) -> (ListPage, CacheOutcome)
    /// Whether a session's list or map still holds a page it gave (`ListViewModel.stillHolds`).
    package let sessionHolds: @Sendable (ListPage, Session, ListPurpose) -> Bool
    /// Opens a live stream of a list or map (`GET /{name}/live`, or a list of a multiplexed
    /// stream): validated like the list, placed under the caps as `LiveSeat` says;
    /// `lastEventID` resumes. The stream starts with `LiveOpening.start`.
    package let live: @Sendable (ListRequest, Session?, ListPurpose, _ lastEventID: String?, LiveSeat) throws(LiveOpenError) -> LiveOpening
    /// One item's row for a display context, with the compressed body the client takes; an
    /// item the caller may not see is not found.
    package let row: @Sendable (_ id: String, DisplayContext, Caller, PageCompression?) throws(ListServiceError) -> (ListPage, CacheOutcome)
    /// The whole list `request` names (without paging) as a file in the format asked, its
    /// rows as of now however long the client takes to read it.
    package let export: @Sendable (ListRequest, ExportFormat) throws(ListServiceError) -> ListExport
    /// Whether anyone may read the collection where tokens are checked (`ListCollection.isPublic`).
    package let isPublic: Bool
    /// Writes, for a collection clients can change; nil otherwise.
    package let writes: Writes?
    /// What the collection does beside lists, rows and writes (`POST /{name}/{path}`).
    package let operations: [CollectionOperation]

    /// An editable collection's writes; each reports once the change is durable (or refused).
    package struct Writes: Sendable {
        /// Named state changes (`complete`, `tap`): `POST /{name}/:id/{action}`.
        package let actions: [String]
        package let create:
            @Sendable (JSONObject, DisplayContext, Caller, KeyedRequest?, _ report: @escaping @Sendable (WriteAnswer) -> Void) -> Void
        package let edit:
            @Sendable (
                _ id: String, ItemEdit, VersionCondition?, DisplayContext, Caller, KeyedRequest?,
                _ report: @escaping @Sendable (WriteAnswer) -> Void
            ) -> Void
        /// Bulk actions (`POST /{name}/actions/{action}`): their names.
        package let bulkActions: [String]
        /// Makes a bulk action on many items, all accepted changes in one durable batch; each
        /// item's answer in the order given.
        package let bulk:
            @Sendable (
                _ action: String, [BulkItem], DisplayContext, Caller, _ report: @escaping @Sendable ([WriteAnswer]) -> Void
            ) -> Void
    }
}

/// A write's outcome with the row to answer it with, formatted for the client.
package enum WriteAnswer: Sendable {
    case created(id: String, row: ListPage)
    case updated(row: ListPage)
    /// The change would not alter the item; nothing was written.
    case unchanged(row: ListPage)
    case deleted
    case refused(WriteRejection)
    /// A keyed write's answer as recorded (`replayed`: by an earlier request under its key).
    case recorded(RecordedAnswer, replayed: Bool)
}

extension CollectionEndpoint {
    /// The endpoint of a collection clients can only read (its operations may write).
    init<C: ListCollection>(_ collection: C.Type, engine: CollectionEngine<C>, writes coordinator: WriteCoordinator) {
        self.init(collection, engine: engine, writes: nil, operations: C.operations(writes: coordinator))
    }

    /// The endpoint of a collection clients can change.
    init<C: EditableCollection>(_ collection: C.Type, engine: CollectionEngine<C>, writes coordinator: WriteCoordinator) {
        let editing = ItemWrites<C>(engine: engine, writes: coordinator)
        let bulkEdits = C.bulkEdits
        self.init(
            collection, engine: engine,
            writes: Writes(
                actions: C.actions,
                create: { body, display, caller, keyed, report in
                    editing.create(from: body, display: display, caller: caller, keyed: keyed) {
                        report(editing.answer($0, display: display, access: C.readScope(for: caller)))
                    }
                },
                edit: { id, edit, condition, display, caller, keyed, report in
                    editing.edit(id: id, edit, condition: condition, display: display, caller: caller, keyed: keyed) {
                        report(editing.answer($0, display: display, access: C.readScope(for: caller)))
                    }
                },
                bulkActions: bulkEdits.keys.sorted(),
                bulk: { action, items, display, caller, report in
                    guard let edit = bulkEdits[action] else { return report([]) }  // routes exist for these only
                    editing.bulk(edit, items: items, display: display, caller: caller) { outcomes in
                        report(outcomes.map { editing.answer($0, display: display, access: C.readScope(for: caller)) })
                    }
                }),
            operations: C.operations(writes: coordinator))
    }

    private init<C: ListCollection>(
        _ collection: C.Type, engine: CollectionEngine<C>, writes: Writes?, operations: [CollectionOperation]
    ) {
        name = C.name
        hasMap = C.markerSort != nil
        page = { request, session, purpose throws(ListServiceError) in
            guard let session else { return try ListViewModel<C>.page(for: request, purpose: purpose, engine: engine) }
            return try session.viewModel(for: C.self, purpose: purpose).page(for: request, session: session, engine: engine)
        }
        sessionHolds = { page, session, purpose in
            session.viewModel(for: C.self, purpose: purpose).stillHolds(page, session: session, now: engine.now)
        }
        live = { request, session, purpose, lastEventID, seat throws(LiveOpenError) in
            try engine.live.open(request, session: session, purpose: purpose, lastEventID: lastEventID, seat: seat, engine: engine)
        }
        row = { id, display, caller, compression throws(ListServiceError) in
            try engine.row(id: id, display: display, access: C.readScope(for: caller), compression: compression)
        }
        export = { request, format throws(ListServiceError) in
            try engine.export(ListCriteria<C>(request, now: engine.now, purpose: .export), format: format)
        }
        isPublic = C.isPublic
        self.writes = writes
        self.operations = operations
    }
}
