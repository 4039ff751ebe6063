import HTTPLite
import ListService

/// The routes every collection gets: `GET /{name}`, `GET /{name}/:id`, and `GET /{name}/map`
/// for collections with markers. Like a SwiftUI `body`, each handler only reads what the
/// session's view-model or the engine prepared.
enum CollectionRoutes {
    /// Adds every registered collection's routes.
    struct Installer: CollectionVisitor {
        let service: CollectionService
        var router: Router

        mutating func visit<C: ListCollection>(_ collection: C.Type) {
            CollectionRoutes.add(C.self, service: service, to: &router)
            if let editable = C.self as? any EditableCollection.Type { addWrites(editable) }
        }

        private mutating func addWrites<E: EditableCollection>(_ collection: E.Type) {
            WriteRoutes.add(E.self, service: service, to: &router)
        }
    }

    static func add<C: ListCollection>(_ collection: C.Type, service: CollectionService, to router: inout Router) {
        let engine = service.engine(C.self)
        let purposes: [(path: String, purpose: ListCriteria<C>.Purpose)] =
            [("/\(C.name)", .list)] + (C.markerSort == nil ? [] : [("/\(C.name)/map", .map)])
        for (path, purpose) in purposes {
            router.get(path) { request in
                let resolution = try SessionResolution(request, store: service.sessions, now: service.now)
                let listRequest = ListRequest(request)
                return try mappingErrors { () throws(ListServiceError) in
                    let (page, outcome) = try resolution.session.viewModel(for: C.self, purpose: purpose).page(
                        for: listRequest, session: resolution.session, engine: engine)
                    return PageResponse.make(
                        page, outcome: outcome, request: request, headers: resolution.headers, metrics: service.metrics)
                }
            }
        }
        router.get("/\(C.name)/:id") { request in
            let display = try request.displayContext()
            return try mappingErrors { () throws(ListServiceError) in
                let (page, outcome) = try engine.row(id: request.pathParameters["id"] ?? "", display: display)
                return PageResponse.make(page, outcome: outcome, request: request, headers: HTTPHeaders(), metrics: service.metrics)
            }
        }
    }
}

extension Request {
    /// The display context of a request for one item: `locale`, `tz` (no other parameters)
    /// and `Accept-Language`.
    func displayContext() throws(HTTPError) -> DisplayContext {
        try mappingErrors { () throws(ListServiceError) in
            let reader = try ParameterReader(ListRequest(self).parameters, allowed: ["locale", "tz"])
            return try reader.displayContext(acceptLanguage: headers["Accept-Language"])
        }
    }
}

extension ListRequest {
    /// The list request an HTTP request makes: its query pairs and `Accept-Language`.
    init(_ request: Request) {
        self.init(parameters: request.query.pairs.map { ($0.name, $0.value) }, acceptLanguage: request.headers["Accept-Language"])
    }
}
