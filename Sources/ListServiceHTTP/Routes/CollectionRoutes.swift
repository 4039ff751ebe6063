import Basics
import HTTPLite
import ListService

/// The routes every collection gets: `GET /{name}`, `GET /{name}/:id`, and `GET /{name}/map`
/// for collections with markers. Like a SwiftUI `body`, each handler only reads what the
/// session's view-model or the engine prepared.
enum CollectionRoutes {
    static func add(_ endpoint: CollectionEndpoint, service: CollectionService, credentials: Credentials, to router: inout Router) {
        for (path, purpose) in endpoint.listPaths() {
            router.get(path) { request in
                ServerTimings.current?.route = "list"
                let caller = try credentials.reader(of: request, isPublic: endpoint.isPublic)
                let resolution = try ServerTimings.measure("session") { () throws(HTTPError) in
                    try SessionResolution(request, store: service.sessions, now: service.now)
                }
                let listRequest = ListRequest(request, caller: caller)
                return try mappingErrors { () throws(ListServiceError) in
                    let (page, outcome) = try endpoint.page(listRequest, resolution.session, purpose)
                    return PageResponse.make(
                        page, outcome: outcome, request: request, compression: listRequest.compression, headers: resolution.headers,
                        metrics: service.metrics)
                }
            }
        }
        router.get("/\(endpoint.name)/:id") { request in
            ServerTimings.current?.route = "row"
            let caller = try credentials.reader(of: request, isPublic: endpoint.isPublic)
            let display = try request.displayContext()
            let compression = Compression.pageCompression(for: request)
            return try mappingErrors { () throws(ListServiceError) in
                let (page, outcome) = try endpoint.row(request.pathParameters["id"] ?? "", display, caller, compression)
                return PageResponse.make(
                    page, outcome: outcome, request: request, compression: compression, headers: HTTPHeaders(), isPerSession: false,
                    metrics: service.metrics)
            }
        }
    }
}

extension CollectionEndpoint {
    /// The paths of the collection's list and, if it has one, its map (`/orders`,
    /// `/quakes/map`), each followed by `suffix` (`/live`).
    func listPaths(suffix: String = "") -> [(path: String, purpose: ListPurpose)] {
        [("/\(name)\(suffix)", .list)] + (hasMap ? [("/\(name)/map\(suffix)", .map)] : [])
    }
}

extension Request {
    /// The display context of a request for one item: `locale`, `tz` (no other parameters)
    /// and `Accept-Language`.
    func displayContext() throws(HTTPError) -> DisplayContext {
        try mappingErrors { () throws(ListServiceError) in
            let reader = try ParameterReader(query.pairs.map { ($0.name, $0.value) }, allowed: ["locale", "tz"])
            return try reader.displayContext(acceptLanguage: headers["Accept-Language"])
        }
    }
}

extension ListRequest {
    /// The list request an HTTP request makes: its query pairs, `Accept-Language`, the
    /// compressed coding its `Accept-Encoding` takes, the client's address, and who asks.
    init(_ request: borrowing Request, caller: Caller) {
        self.init(
            parameters: request.query.pairs.map { ($0.name, $0.value) }, acceptLanguage: request.headers["Accept-Language"],
            compression: Compression.pageCompression(for: request), clientAddress: request.remoteAddress, caller: caller)
    }
}
