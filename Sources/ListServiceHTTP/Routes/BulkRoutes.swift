import Basics
import HTTPLite
import ListService

/// Actions on many rows at once: `POST /{name}/actions/{action}` with `{"items": [{"id": …,
/// "ifMatch": …}, …]}` (up to 500). Each item is decided on its own, as a single write would
/// be; every accepted change is saved in one durable batch; the answer lists each item's
/// outcome: 200 when any was accepted, else 422 (a problem that lists them too).
enum BulkRoutes {
    static func add(_ writes: CollectionEndpoint.Writes, of name: String, to router: inout Router) {
        for action in writes.bulkActions {
            router.post("/\(name)/actions/\(action)", headCheck: IdempotencyKeyHeader.checked(JSONBody.headCheck(JSONBody.json))) {
                request in
                ServerTimings.current?.route = "write"
                let display = try request.displayContext()
                let caller = request.caller
                return try JSONBody.deferred(request) { body, pending in
                    let items: [BulkItem]
                    switch Result(catching: { () throws(HTTPError) in try Self.items(in: body) }) {
                    case .success(let named): items = named
                    case .failure(let error): return pending.complete(error.response)
                    }
                    writes.bulk(action, items, display, caller) { answers in
                        pending.complete(response(to: answers, for: items, action: action, display: display))
                    }
                }
            }
        }
    }

    /// The items a body names: `items` only, 1 to 500 objects of `id` (a string) and an
    /// optional `ifMatch` (a version, quoted or not); each id once. A 422 names the first
    /// fields at fault.
    static func items(in body: JSONObject) throws(HTTPError) -> [BulkItem] {
        var problems: [(field: String, detail: String)] = []
        problems += body.keys.filter { $0 != "items" }.map { ($0, "is not a field of a bulk action.") }
        guard case .array(let list)? = body["items"] else {
            throw invalid(problems + [("items", "must be a list of {\"id\": …, \"ifMatch\": …}.")])
        }
        if list.isEmpty || list.count > maxBulkItems { problems.append(("items", "must name 1 to \(maxBulkItems) items.")) }
        var items: [BulkItem] = []
        var seen = Set<String>()
        for (index, element) in list.prefix(maxBulkItems).enumerated() {
            let field = "items[\(index)]"
            guard case .object(let object) = element, case .string(let id)? = object["id"], !id.isEmpty, id.utf8.count <= 200 else {
                problems.append(("\(field).id", "must be an item's id."))
                continue
            }
            problems += object.keys.filter { $0 != "id" && $0 != "ifMatch" }.map { ("\(field).\($0)", "is not a field of an item.") }
            if !seen.insert(id).inserted { problems.append(("\(field).id", "names '\(id)' a second time.")) }
            var condition: VersionCondition?
            switch object["ifMatch"] {
            case nil, .null?: break
            case .string(let version)?:
                condition = try? ConditionalRequest.ifMatch(version.hasPrefix("\"") || version.hasPrefix("W/") ? version : "\"\(version)\"")
                if condition == nil { problems.append(("\(field).ifMatch", "must be the version a row or ETag gave.")) }
            default: problems.append(("\(field).ifMatch", "must be the version a row or ETag gave."))
            }
            items.append(BulkItem(id: id, condition: condition))
        }
        guard problems.isEmpty else { throw invalid(problems) }
        return items
    }

    private static func invalid(_ problems: [(field: String, detail: String)]) -> HTTPError {
        let errors = problems.prefix(20).map { "{\"field\":\(JSONString.quoted($0.field)),\"detail\":\(JSONString.quoted($0.detail))}" }
        return HTTPError(
            .unprocessableContent, code: "validation-failed",
            detail: problems.count == 1 ? "1 field is invalid." : "\(problems.count) fields are invalid.",
            extensions: [("errors", "[" + errors.joined(separator: ",") + "]"), ("errorCount", "\(problems.count)")])
    }

    /// Each item's outcome, in the order the body named them: `{"id", "status", "row"}` for
    /// one changed (or already so), `{"id", "status": 204}` for one deleted, `{"id", "status",
    /// "problem"}` for one refused; with how many were accepted and refused.
    static func response(to answers: [WriteAnswer], for items: [BulkItem], action: String, display: DisplayContext) -> Response {
        var json = JSONWriter(reservingCapacity: 512 * answers.count)
        var accepted = 0
        json.beginArray()
        for (item, answer) in zip(items, answers) {
            json.beginObject()
            json.field("id", item.id)
            switch answer {
            case .updated(let row), .unchanged(let row), .created(_, let row):
                accepted += 1
                json.field("status", 200)
                json.key("row")
                json.raw(row.body)
            case .deleted:
                accepted += 1
                json.field("status", 204)
            case .refused(let rejection):
                let problem = rejection.httpError(localeTag: display.localeTag).response
                json.field("status", Int(problem.status.code))
                if case .bytes(let body) = problem.body {
                    json.key("problem")
                    json.raw(body)
                }
            case .recorded:
                json.field("status", 500)  // bulk actions take no Idempotency-Key: never recorded
            }
            json.endObject()
        }
        json.endArray()
        let outcomes = json.bytes
        let refused = answers.count - accepted
        guard accepted == 0 else {
            return .json(Array(#"{"items":"#.utf8) + outcomes + Array(#","accepted":\#(accepted),"refused":\#(refused)}"#.utf8))
        }
        return HTTPError(
            .unprocessableContent, code: "nothing-accepted",
            detail: "None of the \(answers.count) items could be changed (\(action)); each one's problem is in items.",
            extensions: [("items", String(decoding: outcomes, as: UTF8.self)), ("accepted", "0"), ("refused", "\(refused)")]
        ).response
    }
}
