import HTTPLite

/// The one place core errors become HTTP problems.
extension ListServiceError {
    var httpError: HTTPError {
        var extensions: [(name: String, json: String)] = []
        if let parameter { extensions.append(("parameter", JSONWriter.encodedString(parameter))) }
        if let allowedValues {
            extensions.append(("allowed", "[" + allowedValues.map(JSONWriter.encodedString).joined(separator: ",") + "]"))
        }
        let status: HTTPStatus
        switch kind {
        case .invalidParameter: status = .badRequest
        case .notFound: status = .notFound
        }
        return HTTPError(status, code: code, detail: detail, extensions: extensions)
    }
}

/// Runs a handler body, turning core errors into problem responses.
func mappingErrors<T>(_ body: () throws(ListServiceError) -> T) throws(HTTPError) -> T {
    do {
        return try body()
    } catch {
        throw error.httpError
    }
}
