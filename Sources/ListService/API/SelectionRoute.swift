import Foundation
import HTTPLite

/// `PUT /session/selection` `{"collection": "quakes", "id": "…"}`: the item a session has
/// selected, shared by that collection's list and map (both echo it as `selectedId`).
/// `"id": null` clears it.
enum SelectionRoute {
    static func add(to router: inout Router, service: ListService) {
        let collections = CollectionRegistry.namesSharingSelection
        router.put("/session/selection") { request in
            let resolution = try SessionResolution(request, store: service.sessions, now: service.now)
            let body = try JSONBody.object(of: request)
            guard case .string(let collection)? = body["collection"], collections.contains(collection) else {
                throw JSONBody.invalid(
                    field: "collection", detail: "must be one of \(collections.joined(separator: ", ")).")
            }
            let id: String?
            switch body["id"] {
            case .string(let text)?: id = text
            case .null?: id = nil
            default: throw JSONBody.invalid(field: "id", detail: "must be an item id or null.")
            }
            if let id, !service.contains(id: id, in: collection) {
                throw ListServiceError.notFound("item in \(collection)", id: id).httpError
            }
            resolution.session.select(id, in: collection)
            var json = JSONWriter()
            json.beginObject()
            json.field("collection", collection)
            json.field("selectedId", id)
            json.endObject()
            return .json(json.bytes, headers: resolution.headers)
        }
    }
}

/// Reading JSON request bodies: 415 unless JSON, 400 when malformed, 422 naming the field.
enum JSONBody {
    /// 415 unless the body is declared `application/json`.
    static func requireJSON(_ request: Request) throws(HTTPError) {
        let type = request.headers["Content-Type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            throw HTTPError(.unsupportedMediaType, code: "unsupported-media-type", detail: "Send the body as application/json.")
        }
    }

    static func object(of request: Request) throws(HTTPError) -> JSONObject {
        try requireJSON(request)
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw HTTPError(.badRequest, code: "malformed-json", detail: "The body is not valid JSON: \(error.description).")
        }
        guard case .object(let object) = value else {
            throw HTTPError(.badRequest, code: "malformed-json", detail: "The body must be a JSON object.")
        }
        return object
    }

    static func invalid(field: String, detail: String) -> HTTPError {
        let errors = "[{\"field\":\(JSONWriter.encodedString(field)),\"detail\":\(JSONWriter.encodedString(detail))}]"
        return HTTPError(
            .unprocessableContent, code: "validation-failed", detail: "'\(field)' \(detail)", extensions: [("errors", errors)])
    }
}
