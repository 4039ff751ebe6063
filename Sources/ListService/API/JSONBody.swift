import HTTPLite

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
