import HTTPLite
import ListService

/// The service's HTTP surface: every route, built once at start-up.
package enum ServiceRoutes {
    /// The largest body of an ordinary write (a form's worth, with room to spare).
    package static let defaultMaxBodyBytes = 256 * 1024
    /// How live events reach the streams of this binding: each event loop gets an event's
    /// bytes once, whatever the number of its streams. Give it to the service when opening it
    /// (`LiveConfiguration.broadcast`); without it, streams are written one by one.
    package static let liveBroadcast: LiveBroadcast = LiveRoutes.broadcast
    /// The largest body of `/quakes/import` (a month of the USGS feed is about 14 MB).
    package static let defaultMaxImportBytes = 64 * 1024 * 1024
    /// The contract, both codings made once.
    private static let specification = StaticResource(contentType: "application/yaml", bytes: PackageResources.openapi_yaml)

    /// The front door: the routes behind the access checks of `policy` (`ServiceHandler`);
    /// `demo` adds `/auth/demo` (its key must be among `policy`'s token keys).
    package static func makeHandler(
        service: CollectionService, policy: AccessPolicy = .open, demo: DemoIdentities? = nil,
        server: @escaping @Sendable () -> ServerStatistics.Snapshot? = { nil }, maxBodyBytes: Int = defaultMaxBodyBytes,
        maxImportBytes: Int = defaultMaxImportBytes
    ) -> ServiceHandler {
        let metrics = AccessMetrics(rates: policy.rates)
        let latencies = RouteLatencies()
        var router = makeRouter(
            service: service, credentials: policy.credentials, server: server, access: metrics, latencies: latencies,
            maxBodyBytes: maxBodyBytes, maxImportBytes: maxImportBytes)
        if let demo { AuthRoutes.add(demo, service: service, to: &router) }
        return ServiceHandler(router: router, policy: policy, metrics: metrics, latencies: latencies)
    }

    /// The routes. `server` supplies the HTTP server's counters for `/metrics` once it
    /// runs. Ordinary bodies are refused past `maxBodyBytes` (413), only an import may reach
    /// `maxImportBytes`.
    private static func makeRouter(
        service: CollectionService, credentials: Credentials, server: @escaping @Sendable () -> ServerStatistics.Snapshot?,
        access: AccessMetrics, latencies: RouteLatencies, maxBodyBytes: Int, maxImportBytes: Int
    ) -> Router {
        var router = Router(defaultMaxBodyBytes: maxBodyBytes)
        let health = Array(#"{"status":"ok"}"#.utf8)
        router.get("/health") { _ in .json(health) }
        router.get("/health/ready") { _ in
            if let error = service.writes.health.readinessError { throw error }
            return .json(Array(#"{"status":"ready"}"#.utf8))
        }
        router.get("/openapi.yaml") { request in specification.response(to: request) }
        WebRoutes.add(.compiled, to: &router)
        let exports = ExportGate(limit: 4)
        for endpoint in service.endpoints {
            CollectionRoutes.add(endpoint, service: service, credentials: credentials, to: &router)
            ExportRoutes.add(endpoint, service: service, credentials: credentials, gate: exports, to: &router)
            LiveRoutes.add(endpoint, service: service, credentials: credentials, to: &router)
            if let writes = endpoint.writes {
                WriteRoutes.add(writes, of: endpoint.name, to: &router)
                BulkRoutes.add(writes, of: endpoint.name, to: &router)
            }
            OperationRoutes.add(endpoint, to: &router, maxLargeBodyBytes: maxImportBytes)
        }
        LiveRoutes.addTickets(credentials: credentials, to: &router)
        MultiplexedLiveRoutes.add(endpoints: service.endpoints, service: service, credentials: credentials, to: &router)
        SelectionRoute.add(to: &router, service: service)
        MetricsRoute.add(to: &router, service: service, access: access, latencies: latencies, server: server)
        return router
    }
}
