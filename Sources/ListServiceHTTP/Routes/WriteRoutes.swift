import Basics
import HTTPLite
import ListService

/// The write routes of an editable collection: `POST /{name}`, `PATCH` and `DELETE
/// /{name}/:id`, and `POST /{name}/:id/{action}`. The core decides and journals; these
/// routes read the request and answer the outcome, once durable. Each takes an
/// `Idempotency-Key`: a retry under the same key gets the first answer again.
enum WriteRoutes {
    static func add(_ writes: CollectionEndpoint.Writes, of name: String, to router: inout Router) {
        router.post("/\(name)", headCheck: IdempotencyKeyHeader.checked(JSONBody.headCheck(JSONBody.json))) { request in
            ServerTimings.current?.route = "write"
            let display = try request.displayContext()
            let caller = request.caller
            let keyed = try IdempotencyKeyHeader.keyedRequest(request)
            return try JSONBody.deferred(request) { body, pending in
                writes.create(body, display, caller, keyed) { answer in
                    pending.complete(response(to: answer, in: name, display: display))
                }
            }
        }
        router.patch("/\(name)/:id", headCheck: IdempotencyKeyHeader.checked(JSONBody.headCheck(JSONBody.mergePatch))) { request in
            ServerTimings.current?.route = "write"
            let target = try Target(request)
            return try JSONBody.deferred(request) { body, pending in
                target.edit(.patch(body), with: writes, in: name, pending: pending)
            }
        }
        router.delete("/\(name)/:id", headCheck: IdempotencyKeyHeader.checked(JSONBody.noFormBodyCheck)) { request in
            ServerTimings.current?.route = "write"
            let target = try Target(request)
            return .deferred { pending in target.edit(.delete, with: writes, in: name, pending: pending) }
        }
        for action in writes.actions {
            router.post("/\(name)/:id/\(action)", headCheck: IdempotencyKeyHeader.checked(JSONBody.noFormBodyCheck)) { request in
                ServerTimings.current?.route = "write"
                let target = try Target(request)
                return .deferred { pending in target.edit(.action(action), with: writes, in: name, pending: pending) }
            }
        }
    }

    /// What a write to an existing item names: its id, the client's display context, `If-Match`,
    /// who asks and under which key.
    private struct Target: Sendable {
        let id: String
        let display: DisplayContext
        let condition: VersionCondition?
        let caller: Caller
        let keyed: KeyedRequest?

        init(_ request: Request) throws(HTTPError) {
            id = request.pathParameters["id"] ?? ""
            display = try request.displayContext()
            condition = try ConditionalRequest.ifMatch(request.headers["If-Match"])
            caller = request.caller
            keyed = try IdempotencyKeyHeader.keyedRequest(request)
        }

        func edit(_ edit: ItemEdit, with writes: CollectionEndpoint.Writes, in name: String, pending: DeferredResponse) {
            writes.edit(id, edit, condition, display, caller, keyed) { answer in
                pending.complete(response(to: answer, in: name, display: display))
            }
        }
    }

    /// The answer to a write: the item's detail (201 with `Location` for a new item), 204 for a
    /// deletion, or the refusal's problem (validation in the client's language); a keyed
    /// write's as recorded, marked `Idempotent-Replayed: true` when replayed.
    private static func response(to answer: WriteAnswer, in name: String, display: DisplayContext) -> Response {
        switch answer {
        case .created(let id, let row): .json(row.body, status: .created, headers: ["Location": "/\(name)/\(id)", "ETag": row.etag])
        case .updated(let row), .unchanged(let row): .json(row.body, headers: ["ETag": row.etag])
        case .deleted: Response(status: .noContent)
        case .refused(let rejection): rejection.httpError(localeTag: display.localeTag).response
        case .recorded(let recorded, let replayed): response(to: recorded, replayed: replayed)
        }
    }

    /// A keyed write's recorded answer: the status its outcome had, `Location` for a created
    /// item, its `ETag`, its body.
    static func response(to recorded: RecordedAnswer, replayed: Bool) -> Response {
        var headers: HTTPHeaders = replayed ? IdempotencyKeyHeader.replayed : [:]
        if let etag = recorded.etag { headers.add(name: "ETag", value: etag) }
        switch recorded.outcome {
        case .created:
            if let id = recorded.itemID { headers.add(name: "Location", value: "/\(recorded.collection)/\(id)") }
            return .json(recorded.body, status: .created, headers: headers)
        case .updated, .unchanged, .done: return .json(recorded.body, headers: headers)
        case .deleted:
            var response = Response(status: .noContent)
            for field in headers { response.headers.add(name: field.name, value: field.value) }
            return response
        }
    }
}
