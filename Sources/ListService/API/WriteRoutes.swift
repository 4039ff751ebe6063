import Foundation
import HTTPLite

/// The write routes of an editable collection: `POST /{name}`, `PATCH` and `DELETE
/// /{name}/:id`, and `POST /{name}/:id/{action}`. A small body is parsed on the loop thread, a
/// large one on a worker; the change runs on the write coordinator's queue and the response
/// waits for the journal's fsync.
enum WriteRoutes {
    static func add<C: EditableCollection>(_ collection: C.Type, service: ListService, to router: inout Router) {
        let engine = service.engine(C.self)
        router.post("/\(C.name)") { request in
            let display = try request.displayContext()
            return try JSONBody.deferred(request) { body, pending in
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
            let target = try Target(request)
            return try JSONBody.deferred(request, mediaTypes: JSONBody.mergePatch) { body, pending in
                change(target, engine: engine, service: service, pending: pending) { item in
                    C.patch(item, with: body, now: engine.now).map(ItemWrite.replace)
                }
            }
        }
        router.delete("/\(C.name)/:id") { request in
            let target = try Target(request)
            return .deferred { pending in
                change(target, engine: engine, service: service, pending: pending) { _ in .success(.delete) }
            }
        }
        for action in C.actions {
            router.post("/\(C.name)/:id/\(action)") { request in
                let target = try Target(request)
                return .deferred { pending in
                    change(target, engine: engine, service: service, pending: pending) { item in
                        C.perform(action, on: item).map(ItemWrite.replace)
                    }
                }
            }
        }
    }

    /// What a write to an existing item names: its id, the client's display context and `If-Match`.
    private struct Target: Sendable {
        let id: String
        let display: DisplayContext
        let condition: String?

        init(_ request: Request) throws(HTTPError) {
            id = request.pathParameters["id"] ?? ""
            display = try request.displayContext()
            condition = request.headers["If-Match"]
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
        _ target: Target, engine: CollectionEngine<C>, service: ListService, pending: DeferredResponse,
        transform: @escaping @Sendable (C.Item) -> Result<ItemWrite<C.Item>, WriteRejection>
    ) {
        let (id, display) = (target.id, target.display)
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
            let version = engine.version(of: item)
            if let rejection = precondition(target.condition, version: version, itemName: C.itemName) {
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
                if engine.version(of: changed) == version {
                    let row = engine.formattedRow(item, display: display)
                    return pending.complete(.json(row.body, headers: ["ETag": row.etag]))
                }
                batch.record(C.self, .upsert(changed))
                batch.onCommit { outcome in pending.complete(respond(outcome, engine: engine, id: id, display: display, status: .ok)) }
            }
        }
    }

    /// RFC 9110 §13.1.1: `If-Match` names the version of the item the client holds; a write to
    /// another version is refused (412), so two front ends cannot overwrite each other blindly.
    /// A row's ETag is `"<item version>-<representation>"`: the comparison reads only the
    /// version, so an ETag read in any locale or time zone matches while the item is unchanged.
    private static func precondition(_ header: String?, version current: String, itemName: String) -> WriteRejection? {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }  // empty: no condition
        let matches = header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            // Strong comparison: a weak tag (W/"…") never matches.
            guard tag.count >= 2, tag.first == "\"", tag.last == "\"" else { return false }
            return tag.dropFirst().dropLast().split(separator: "-", maxSplits: 1).first.map(String.init) == current
        }
        return matches ? nil : WriteRejection(kind: .stale, detail: "The \(itemName) changed since its ETag was read; fetch it again.")
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
    /// At most this many field problems are listed; `errorCount` tells how many there were.
    static let listedProblems = 50

    var httpError: HTTPError {
        switch kind {
        case .invalid(let problems):
            let errors = "[" + problems.prefix(Self.listedProblems)
                .map { "{\"field\":\(JSONWriter.encodedString($0.field)),\"detail\":\(JSONWriter.encodedString($0.detail))}" }
                .joined(separator: ",") + "]"
            return HTTPError(
                .unprocessableContent, code: "validation-failed", detail: detail,
                extensions: [("errors", errors), ("errorCount", "\(problems.count)")])
        case .notFound: return HTTPError(.notFound, code: "not-found", detail: detail)
        case .conflict: return HTTPError(.conflict, code: "conflict", detail: detail)
        case .stale: return HTTPError(.preconditionFailed, code: "precondition-failed", detail: detail)
        case .storageUnavailable:
            return HTTPError(.serviceUnavailable, code: "storage-unavailable", detail: detail, headers: ["Retry-After": "5"])
        }
    }
}
