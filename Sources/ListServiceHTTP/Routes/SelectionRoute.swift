import Foundation
import HTTPLite
import ListService

/// `PUT /session/selection` `{"collection": "quakes", "id": "…"}`: the item a session has
/// selected, shared by that collection's list and map (both echo it as `selectedId`).
/// `"id": null` clears it.
enum SelectionRoute {
    static func add(to router: inout Router, service: CollectionService) {
        let collections = service.namesSharingSelection
        router.put("/session/selection", headCheck: JSONBody.headCheck(JSONBody.json)) { request in
            let body = try JSONBody.object(of: request)
            let localeTag = (try? request.displayContext())?.localeTag ?? "en-US"
            var fields = FieldValidator(body)
            fields.rejectUnknown(["collection", "id"])
            var collection = ""
            if case .string(let name)? = body["collection"], collections.contains(name) {
                collection = name
            } else {
                fields.report("collection", .oneOf(collections))
            }
            var id: String?
            switch body["id"] {
            case .string(let text)?: id = text
            case .null?: break  // clears the selection
            default: fields.report("id", .itemIDOrNull)
            }
            if let rejection = fields.result { throw rejection.httpError(localeTag: localeTag) }
            if let id, !service.contains(id: id, in: collection) {
                throw ListServiceError.notFound("item in \(collection)", id: id).httpError
            }
            // Only a valid selection makes or touches a session.
            let resolution = try SessionResolution(request, store: service.sessions, now: service.now, needsSession: true)
            if let session = resolution.session { service.select(id, in: collection, for: session) }
            var json = JSONWriter()
            json.beginObject()
            json.field("collection", collection)
            json.field("selectedId", id)
            json.endObject()
            return .json(json.bytes, headers: resolution.headers)
        }
    }
}
