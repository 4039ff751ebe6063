import HTTPLite

/// `GET /orders` and `GET /orders/:id`. Like a SwiftUI `body`, each handler only reads what
/// the session's view-model or the engine prepared.
enum OrdersRoutes {
    static func add(to router: inout Router, service: ListService) {
        router.get("/orders") { request in
            let resolution = try SessionResolution(request, store: service.sessions, now: service.orders.now)
            let listRequest = ListRequest(
                parameters: request.query.pairs.map { ($0.name, $0.value) }, acceptLanguage: request.headers["Accept-Language"])
            return try mappingErrors { () throws(ListServiceError) in
                let (page, outcome) = try resolution.session.orders.page(for: listRequest, engine: service.orders)
                return PageResponse.make(page, outcome: outcome, request: request, headers: resolution.headers, metrics: service.metrics)
            }
        }
        router.get("/orders/:id") { request in
            try mappingErrors { () throws(ListServiceError) in
                let reader = try ParameterReader(request.query.pairs.map { ($0.name, $0.value) }, allowed: ["locale", "tz"])
                let display = try reader.displayContext(acceptLanguage: request.headers["Accept-Language"])
                let (page, outcome) = try service.orders.row(id: request.pathParameters["id"] ?? "", display: display)
                return PageResponse.make(page, outcome: outcome, request: request, headers: HTTPHeaders(), metrics: service.metrics)
            }
        }
    }
}
