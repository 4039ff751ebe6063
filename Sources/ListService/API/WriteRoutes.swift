import Foundation
import HTTPLite

/// The write routes of an editable collection: `POST /{name}`, `PATCH` and `DELETE
/// /{name}/:id`, and `POST /{name}/:id/{action}`. The body is read on the loop thread; the
/// change runs on the write coordinator's queue and the response waits for the journal's fsync.
enum WriteRoutes {
    static func add<C: EditableCollection>(_ collection: C.Type, service: ListService, to router: inout Router) {
        let engine = service.engine(C.self)
        router.post("/\(C.name)") { request in
            let body = try JSONBody.object(of: request)
            let display = try request.displayContext()
            return .deferred { pending in
                service.writes.submit { batch in
                    switch batch.withNextSequence(C.self, { C.makeItem(from: body, sequence: $0, now: engine.now) }) {
                    case .failure(let rejection):
                        pending.complete(rejection.httpError.response)
                    case .success(let item):
                        batch.record(C.self, .upsert(item))
                        batch.onCommit { outcome in
                            pending.complete(
                                respond(outcome, engine: engine, id: C.id(of: item), display: display, status: .created,
                                    extraHeaders: ["Location": "/\(C.name)/\(C.id(of: item))"]))
                        }
                    }
                }
            }
        }
        router.patch("/\(C.name)/:id") { request in
            let body = try JSONBody.object(of: request)
            return try change(request, engine: engine, service: service) { item in
                C.patch(item, with: body, now: engine.now).map(ItemWrite.replace)
            }
        }
        router.delete("/\(C.name)/:id") { request in
            try change(request, engine: engine, service: service) { _ in .success(.delete) }
        }
        for action in C.actions {
            router.post("/\(C.name)/:id/\(action)") { request in
                try change(request, engine: engine, service: service) { item in C.perform(action, on: item).map(ItemWrite.replace) }
            }
        }
    }

    /// What a write does to an existing item.
    private enum ItemWrite<Item> {
        case replace(Item)
        case delete
    }

    /// Reads the item (404), lets `transform` decide (422, 409), checks `If-Match` (412), and
    /// journals the result; a replacement that changes nothing is answered at once, unwritten.
    private static func change<C: EditableCollection>(
        _ request: Request, engine: CollectionEngine<C>, service: ListService,
        transform: @escaping @Sendable (C.Item) -> Result<ItemWrite<C.Item>, WriteRejection>
    ) throws -> Response {
        let id = request.pathParameters["id"] ?? ""
        let display = try request.displayContext()
        let condition = request.headers["If-Match"]
        return .deferred { pending in
            service.writes.submit { batch in
                guard let item = batch.item(C.self, id: id) else {
                    return pending.complete(ListServiceError.notFound(C.itemName, id: id).httpError.response)
                }
                // The body is judged first (422, 409): a precondition only decides whether a valid change may go ahead.
                let write: ItemWrite<C.Item>
                switch transform(item) {
                case .failure(let rejection): return pending.complete(rejection.httpError.response)
                case .success(let decided): write = decided
                }
                if let rejection = precondition(condition, item: item, engine: engine, display: display) {
                    return pending.complete(rejection.httpError.response)
                }
                switch write {
                case .delete:
                    batch.record(C.self, .delete(id: id))
                    batch.onCommit { outcome in
                        switch outcome {
                        case .success: pending.complete(Response(status: .noContent))
                        case .failure(let rejection): pending.complete(rejection.httpError.response)
                        }
                    }
                case .replace(let changed):
                    if let unchanged = unchangedRow(item, changed, engine: engine, display: display) {
                        return pending.complete(unchanged)
                    }
                    batch.record(C.self, .upsert(changed))
                    batch.onCommit { outcome in pending.complete(respond(outcome, engine: engine, id: id, display: display, status: .ok)) }
                }
            }
        }
    }

    /// When a change leaves the row as it was (completing a completed order), its current row.
    private static func unchangedRow<C: ListCollection>(
        _ item: C.Item, _ changed: C.Item, engine: CollectionEngine<C>, display: DisplayContext
    ) -> Response? {
        var before = JSONWriter(), after = JSONWriter()
        C.writeItem(item, to: &before)
        C.writeItem(changed, to: &after)
        guard before.bytes == after.bytes else { return nil }
        let row = engine.formattedRow(item, display: display)
        return .json(row.body, headers: ["ETag": row.etag])
    }

    /// RFC 9110 §13.1.1: `If-Match` names the representation the client holds; a write to
    /// another version is refused (412), so two front ends cannot overwrite each other blindly.
    private static func precondition<C: ListCollection>(
        _ header: String?, item: C.Item, engine: CollectionEngine<C>, display: DisplayContext
    ) -> WriteRejection? {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }  // empty: no condition
        let current = engine.formattedRow(item, display: display).etag
        let matches = header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == current  // strong comparison: weak tags never match
        }
        return matches ? nil : WriteRejection(kind: .stale, detail: "The \(C.itemName) changed since its ETag was read; fetch it again.")
    }

    /// The committed item's row, or the failure.
    private static func respond<C: ListCollection>(
        _ outcome: Result<Void, WriteRejection>, engine: CollectionEngine<C>, id: String, display: DisplayContext, status: HTTPStatus,
        extraHeaders: HTTPHeaders = HTTPHeaders()
    ) -> Response {
        if case .failure(let rejection) = outcome { return rejection.httpError.response }
        do {
            let (row, _) = try engine.row(id: id, display: display)
            var headers = extraHeaders
            headers.add(name: "ETag", value: row.etag)
            return .json(row.body, status: status, headers: headers)
        } catch {
            return error.httpError.response
        }
    }
}

extension WriteRejection {
    var httpError: HTTPError {
        switch kind {
        case .invalid(let problems):
            let errors = "[" + problems.map { "{\"field\":\(JSONWriter.encodedString($0.field)),\"detail\":\(JSONWriter.encodedString($0.detail))}" }
                .joined(separator: ",") + "]"
            return HTTPError(.unprocessableContent, code: "validation-failed", detail: detail, extensions: [("errors", errors)])
        case .notFound: return HTTPError(.notFound, code: "not-found", detail: detail)
        case .conflict: return HTTPError(.conflict, code: "conflict", detail: detail)
        case .stale: return HTTPError(.preconditionFailed, code: "precondition-failed", detail: detail)
        case .storageUnavailable:
            return HTTPError(.serviceUnavailable, code: "storage-unavailable", detail: detail, headers: ["Retry-After": "5"])
        }
    }
}
