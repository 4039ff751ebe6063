import Basics
import HTTPLite
import ListService

// The one place core errors become HTTP problems (RFC 9457) with their status.

extension ListServiceError {
    var httpError: HTTPError {
        var extensions: [(name: String, json: String)] = []
        if let parameters { extensions.append(("parameters", "[" + parameters.map(JSONString.quoted).joined(separator: ",") + "]")) }
        if let allowedValues {
            extensions.append(("allowed", "[" + allowedValues.map(JSONString.quoted).joined(separator: ",") + "]"))
        }
        let status: HTTPStatus
        switch kind {
        case .invalidParameter: status = .badRequest
        case .notFound: status = .notFound
        case .notAcceptable: status = .notAcceptable
        }
        return HTTPError(status, code: code, detail: detail, parameter: parameter, extensions: extensions)
    }
}

extension LiveOpenError {
    var httpError: HTTPError {
        switch self {
        case .invalid(let error): error.httpError
        case .refused(.tooManyForSession(let limit)):
            HTTPError(
                .serviceUnavailable, code: "too-many-live-streams",
                detail: "This session (or, without one, this address) already watches \(limit) live lists; close one first.",
                headers: ["Retry-After": "5"])
        case .refused(.tooManyForServer(let limit)):
            HTTPError(
                .serviceUnavailable, code: "too-many-live-streams",
                detail: "The server holds its maximum of \(limit) live streams; retry shortly.", headers: ["Retry-After": "5"])
        case .refused(.shuttingDown):
            HTTPError(.serviceUnavailable, code: "shutting-down", detail: "The server is shutting down.", headers: ["Retry-After": "5"])
        }
    }
}

extension WriteRejection {
    /// At most this many field problems are listed; `errorCount` tells how many there were.
    static let listedProblems = 50

    var httpError: HTTPError { httpError(localeTag: "en") }

    /// The problem, its validation details in the language of `localeTag`.
    func httpError(localeTag: String) -> HTTPError {
        let detail = detail(in: localeTag)
        switch kind {
        case .invalid(let problems):
            let errors =
                "["
                + problems.prefix(Self.listedProblems)
                .map { "{\"field\":\(JSONString.quoted($0.field)),\"detail\":\(JSONString.quoted($0.detail(in: localeTag)))}" }
                .joined(separator: ",") + "]"
            return HTTPError(
                .unprocessableContent, code: "validation-failed", detail: detail,
                extensions: [("errors", errors), ("errorCount", "\(problems.count)")])
        case .notFound: return HTTPError(.notFound, code: "not-found", detail: detail)
        case .forbidden: return HTTPError(.forbidden, code: "forbidden", detail: detail)
        case .conflict: return HTTPError(.conflict, code: "conflict", detail: detail)
        case .stale: return HTTPError(.preconditionFailed, code: "precondition-failed", detail: detail)
        case .storageUnavailable:
            return HTTPError(.serviceUnavailable, code: "storage-unavailable", detail: detail, headers: ["Retry-After": "5"])
        case .idempotencyKeyReused:
            return HTTPError(
                .unprocessableContent, code: "idempotency-key-reused", detail: detail, parameter: "Idempotency-Key")
        case .idempotencyKeyInFlight:
            return HTTPError(
                .conflict, code: "idempotency-key-in-flight", detail: detail, parameter: "Idempotency-Key",
                headers: ["Retry-After": "1"])
        }
    }
}

extension OperationRefusal {
    var httpError: HTTPError {
        switch self {
        case .malformedJSON(let detail): HTTPError.malformedJSON(detail)
        case .rejected(let rejection): rejection.httpError
        }
    }
}

extension StorageHealth {
    /// 503 naming each collection whose storage fails (for `/health/ready`); nil when all can be written.
    var readinessError: HTTPError? {
        let failing = failingCollections
        guard !failing.isEmpty else { return nil }
        let list =
            "["
            + failing.map { "{\"collection\":\(JSONString.quoted($0.name)),\"error\":\(JSONString.quoted($0.error))}" }
            .joined(separator: ",") + "]"
        return HTTPError(
            .serviceUnavailable, code: "storage-unavailable",
            detail: "Changes cannot be saved: \(failing.map(\.name).joined(separator: ", ")).",
            extensions: [("failing", list)], headers: ["Retry-After": "5"])
    }
}

extension HTTPError {
    /// A body that is not JSON, or not the JSON expected (400).
    static func malformedJSON(_ detail: String) -> HTTPError { HTTPError(.badRequest, code: "malformed-json", detail: detail) }

    /// A session id header that is not one (400).
    static let invalidSessionID = HTTPError(
        .badRequest, code: "invalid-session-id",
        detail: "X-Session-ID must be 1 to 128 characters of A-Z, a-z, 0-9, '-' and '_'.",
        parameter: "X-Session-ID")

    /// An `If-Match` value that is not `*` or entity tags in quotes (400).
    static let invalidIfMatch = HTTPError(
        .badRequest, code: "invalid-if-match",
        detail: #"If-Match holds entity tags in quotes (a row's version as "<version>", or its ETag), or *."#,
        parameter: "If-Match")

    /// A body whose media type the route does not read (415).
    static func unsupportedMediaType(_ accepted: [String], headers: HTTPHeaders) -> HTTPError {
        HTTPError(
            .unsupportedMediaType, code: "unsupported-media-type", detail: "Send the body as \(accepted.joined(separator: " or ")).",
            headers: headers)
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
