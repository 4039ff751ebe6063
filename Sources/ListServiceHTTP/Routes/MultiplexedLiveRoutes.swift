import Basics
import HTTPLite
import ListService

/// One stream for a page's live lists: `GET /live` opens a session's multiplexed stream
/// (`hello` names it), `PUT /live/:stream/lists/:key` with `{"path": "/orders/live?…"}` starts
/// or replaces a list on it, `DELETE` stops one. Every event carries its list's key; the
/// stream's event ids resume every list at once.
enum MultiplexedLiveRoutes {
    static func add(endpoints: [CollectionEndpoint], service: CollectionService, credentials: Credentials, to router: inout Router) {
        let paths = LivePaths(endpoints: endpoints, credentials: credentials)
        router.get("/live") { request in
            ServerTimings.current?.route = "live"
            _ = try mappingErrors { () throws(ListServiceError) in
                try ParameterReader(request.query.pairs.map { ($0.name, $0.value) }, allowed: ["lastEventId", "ticket"])
            }
            let resolution = try SessionResolution(request, store: service.sessions, now: service.now, needsSession: true)
            guard let session = resolution.session else {  // made above for a client that named none
                throw HTTPError(.internalServerError, code: "no-session", detail: "No session could be made for the stream.")
            }
            let lastEventID = request.headers["Last-Event-ID"] ?? request.query.pairs.last { $0.name == "lastEventId" }?.value
            let opening: LiveMuxOpening
            do throws(LiveHub.Refusal) {
                opening = try service.liveStreams.open(owner: session.id, lastEventID: lastEventID) { path, lastEventID in
                    try? paths.opening(for: path, as: request, session: session, lastEventID: lastEventID)
                }
            } catch {
                throw LiveOpenError.refused(error).httpError
            }
            return .eventStream(headers: resolution.headers, start: opening.start)
        }
        // Putting or removing a list changes what the caller's own stream carries, no data:
        // it needs what the list's read needs.
        router.put("/live/:stream/lists/:key", headCheck: JSONBody.headCheck(JSONBody.json), changesData: false) { request in
            let (stream, key, session) = try target(of: request, service: service)
            let body = try JSONBody.object(of: request)
            var fields = FieldValidator(body)
            fields.rejectUnknown(["path"])
            guard case .string(let path)? = body["path"] else {
                fields.report("path", .text("must be a list's live path with its parameters, such as \"/orders/live?filter=pending\"."))
                throw WriteRejection.invalid(fields.problems).httpError
            }
            if let rejection = fields.result { throw rejection.httpError }
            let opening = try paths.opening(for: path, as: request, session: session, lastEventID: nil)
            guard stream.put(key, path: path, opening: opening) else {
                throw HTTPError(
                    .conflict, code: "too-many-lists",
                    detail: "This stream carries its maximum of \(service.live.configuration.maxListsPerStream) lists; remove one first.")
            }
            var json = JSONWriter()
            json.beginObject()
            json.field("key", key)
            json.field("path", path)
            json.endObject()
            return .json(json.bytes, headers: ["Cache-Control": "no-store"])
        }
        router.delete("/live/:stream/lists/:key", headCheck: JSONBody.noFormBodyCheck, changesData: false) { request in
            let (stream, key, _) = try target(of: request, service: service)
            guard stream.remove(key) else {
                throw HTTPError(.notFound, code: "not-found", detail: "This stream carries no list '\(key)'.")
            }
            return Response(status: .noContent)
        }
    }

    /// The stream and list key a `PUT` or `DELETE` names: 400 for a key that is not 1–64 of
    /// `[A-Za-z0-9_-]`, 404 for a stream that is not the caller's session's.
    private static func target(of request: Request, service: CollectionService) throws(HTTPError) -> (LiveMuxStream, String, Session) {
        let key = request.pathParameters["key"] ?? ""
        guard (1...64).contains(key.utf8.count), key.utf8.allSatisfy(Self.isKeyCharacter) else {
            throw HTTPError(
                .badRequest, code: "invalid-parameter", detail: "A list's key is 1 to 64 characters of A-Z, a-z, 0-9, '-' and '_'.",
                parameter: "key")
        }
        let resolution = try SessionResolution(request, store: service.sessions, now: service.now)
        guard let session = resolution.session,
            let stream = service.liveStreams.stream(id: request.pathParameters["stream"] ?? "", owner: session.id)
        else {
            throw HTTPError(
                .notFound, code: "not-found",
                detail: "No live stream with this id in this session (send the session's cookie or X-Session-ID).")
        }
        return (stream, key, session)
    }

    private static func isKeyCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

/// The live paths lists can be watched under (`/orders/live`, `/quakes/map/live`), and how one
/// with its parameters is opened for a multiplexed stream, as its own `GET` would be.
struct LivePaths: Sendable {
    private let targets: [String: (endpoint: CollectionEndpoint, purpose: ListPurpose)]
    private let credentials: Credentials

    init(endpoints: [CollectionEndpoint], credentials: Credentials) {
        var targets: [String: (CollectionEndpoint, ListPurpose)] = [:]
        for endpoint in endpoints {
            for (path, purpose) in endpoint.listPaths(suffix: "/live") { targets[path] = (endpoint, purpose) }
        }
        self.targets = targets
        self.credentials = credentials
    }

    /// Validates `path` (`/orders/live?filter=pending`) for the caller of `request` and opens
    /// its live list for a multiplexed stream: the list's own 400 for a bad parameter, 401
    /// where it needs a signed-in caller, 422 for a path that is no list's live path.
    func opening(for path: String, as request: Request, session: Session, lastEventID: String?) throws(HTTPError) -> LiveOpening {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let target = targets[String(parts[0])] else {
            throw WriteRejection.invalid(
                field: "path",
                .text("is not a list's live path: one of \(targets.keys.sorted().joined(separator: ", ")), with its parameters.")
            ).httpError
        }
        let query: QueryParameters
        do {
            query = try QueryParameters(parsing: parts.count > 1 ? String(parts[1]) : "")
        } catch {
            throw error.httpError  // the list's own 400, as for any other bad parameter
        }
        let caller = try credentials.reader(of: request, isPublic: target.endpoint.isPublic)
        var listRequest = ListRequest(
            parameters: query.pairs.map { ($0.name, $0.value) }, acceptLanguage: request.headers["Accept-Language"],
            clientAddress: request.remoteAddress, caller: caller)
        listRequest.parameters.removeAll { $0.name == "lastEventId" || $0.name == "ticket" }
        do throws(LiveOpenError) {
            return try target.endpoint.live(listRequest, session, target.purpose, lastEventID, .multiplexed)
        } catch {
            throw error.httpError
        }
    }
}
