import HTTPLite
import ListService

/// The write routes of an editable collection: `POST /{name}`, `PATCH` and `DELETE
/// /{name}/:id`, and `POST /{name}/:id/{action}`. The core decides and journals
/// (`CollectionService.create`, `edit`); these routes read the request and answer the outcome,
/// once durable.
enum WriteRoutes {
    static func add<C: EditableCollection>(_ collection: C.Type, service: CollectionService, to router: inout Router) {
        let engine = service.engine(C.self)
        router.post("/\(C.name)") { request in
            let display = try request.displayContext()
            return try JSONBody.deferred(request) { body, pending in
                service.create(C.self, from: body) { outcome in pending.complete(response(to: outcome, engine: engine, display: display)) }
            }
        }
        router.patch("/\(C.name)/:id") { request in
            let target = try Target(request)
            return try JSONBody.deferred(request, mediaTypes: JSONBody.mergePatch) { body, pending in
                target.edit(.patch(body), service: service, engine: engine, pending: pending)
            }
        }
        router.delete("/\(C.name)/:id") { request in
            let target = try Target(request)
            return .deferred { pending in target.edit(.delete, service: service, engine: engine, pending: pending) }
        }
        for action in C.actions {
            router.post("/\(C.name)/:id/\(action)") { request in
                let target = try Target(request)
                return .deferred { pending in target.edit(.action(action), service: service, engine: engine, pending: pending) }
            }
        }
    }

    /// What a write to an existing item names: its id, the client's display context and `If-Match`.
    private struct Target: Sendable {
        let id: String
        let display: DisplayContext
        let condition: VersionCondition?

        init(_ request: Request) throws(HTTPError) {
            id = request.pathParameters["id"] ?? ""
            display = try request.displayContext()
            condition = ConditionalRequest.ifMatch(request.headers["If-Match"])
        }

        func edit<C: EditableCollection>(
            _ edit: ItemEdit, service: CollectionService, engine: CollectionEngine<C>, pending: DeferredResponse
        ) {
            let display = display
            service.edit(C.self, id: id, edit, condition: condition) { outcome in
                pending.complete(response(to: outcome, engine: engine, display: display))
            }
        }
    }

    /// The answer to a write: the item's row (201 with `Location` for a new item), 204 for a
    /// deletion, or the refusal's problem.
    private static func response<C: EditableCollection>(
        to outcome: WriteOutcome<C.Item>, engine: CollectionEngine<C>, display: DisplayContext
    ) -> Response {
        switch outcome {
        case .created(let item):
            let id = C.id(of: item)
            return committedRow(id: id, engine: engine, display: display, status: .created, headers: ["Location": "/\(C.name)/\(id)"])
        case .updated(let item):
            return committedRow(id: C.id(of: item), engine: engine, display: display, status: .ok, headers: HTTPHeaders())
        case .unchanged(let item):
            let row = engine.formattedRow(item, display: display)
            return .json(row.body, headers: ["ETag": row.etag])
        case .deleted:
            return Response(status: .noContent)
        case .refused(let rejection):
            return rejection.httpError.response
        }
    }

    /// The committed item's row, as every later read serves it.
    private static func committedRow<C: ListCollection>(
        id: String, engine: CollectionEngine<C>, display: DisplayContext, status: HTTPStatus, headers: HTTPHeaders
    ) -> Response {
        do {
            let (row, _) = try engine.row(id: id, display: display)
            var headers = headers
            headers.add(name: "ETag", value: row.etag)
            return .json(row.body, status: status, headers: headers)
        } catch {
            return error.httpError.response  // deleted by a later write of the same batch
        }
    }
}
