import Basics
import Dispatch
import HTTPLite
import ListService

/// Reading JSON request bodies: 415 unless JSON, 400 when malformed (or past the parser's
/// limits), 422 naming the field. Bodies past a few kilobytes are parsed off the event loop,
/// so one large request never stalls the other clients of its loop.
enum JSONBody {
    /// `application/json`, the type every JSON body may have.
    static let json = ["application/json"]
    /// What a JSON merge patch (RFC 7396) may be sent as.
    static let mergePatch = ["application/merge-patch+json", "application/json"]

    /// Bodies up to this size parse on the loop thread (microseconds); larger ones on a worker.
    static let inlineParseBytes = 16 * 1024

    /// 415 unless the body's media type is one of `mediaTypes`.
    static func require(_ mediaTypes: [String], of request: Request) throws(HTTPError) {
        let type = request.headers["Content-Type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard let type, mediaTypes.contains(type) else {
            throw .unsupportedMediaType(mediaTypes, headers: mediaTypes == mergePatch ? ["Accept-Patch": mergePatch[0]] : [:])
        }
    }

    /// The head check of a route whose body must be one of `mediaTypes` (415, before the body is read).
    static func headCheck(_ mediaTypes: [String]) -> Router.HeadCheck {
        { (request: Request) throws(HTTPError) in try require(mediaTypes, of: request) }
    }

    /// The head check of a write that takes no body (see `requireNoFormBody(_:)`).
    static let noFormBodyCheck: Router.HeadCheck = { (request: Request) throws(HTTPError) in try requireNoFormBody(request) }

    /// 415 for a write that takes no body (an action, a deletion) sent with a body or a
    /// content type that is not JSON: a form posted from another site must not pass for one.
    private static func requireNoFormBody(_ request: Request) throws(HTTPError) {
        if request.headers["Content-Type"] != nil || !request.body.isEmpty { try require(json, of: request) }
    }

    /// The body as a JSON object, parsed with the request-body limits (its media type is the
    /// route's `headCheck`).
    static func object(of request: Request) throws(HTTPError) -> JSONObject { try parseObject(request.body) }

    /// A deferred response whose `body` runs with the parsed object: at once for a small body,
    /// on a worker thread for a large one. A malformed body is answered 400 either way (its
    /// media type is the route's `headCheck`).
    static func deferred(
        _ request: Request, _ body: @escaping @Sendable (JSONObject, DeferredResponse) -> Void
    ) throws(HTTPError) -> Response {
        if request.body.count <= inlineParseBytes {
            let object = try parseObject(request.body)
            return .deferred { pending in body(object, pending) }
        }
        let bytes = request.body
        return .deferred { pending in
            RequestTrace.offLoop {
                switch Result(catching: { () throws(HTTPError) in try parseObject(bytes) }) {
                case .success(let object): body(object, pending)
                case .failure(let error): pending.complete(error.response)
                }
            }
        }
    }

    private static func parseObject(_ bytes: [UInt8]) throws(HTTPError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, limits: .requestBody)
        } catch {
            throw .malformedJSON("The body is not valid JSON: \(error.description).")
        }
        guard case .object(let object) = value else {
            throw .malformedJSON("The body must be a JSON object.")
        }
        return object
    }
}
