import HTTPLite

/// The service's HTTP surface: every route, built once at start-up.
public enum ServiceRoutes {
    /// `server` supplies the HTTP server's counters for `/metrics` once it runs.
    public static func makeRouter(
        service: ListService, server: @escaping @Sendable () -> ServerStatistics.Snapshot? = { nil }
    ) -> Router {
        var router = Router()
        let health = Array(#"{"status":"ok"}"#.utf8)
        router.get("/health") { _ in .json(health) }
        let plaintext = Array("Hello, World!".utf8)
        router.get("/plaintext") { _ in Response(contentType: "text/plain; charset=utf-8", bytes: plaintext) }
        let specification = Array(OpenAPIDocument.yaml.utf8)
        router.get("/openapi.yaml") { _ in Response(contentType: "application/yaml", bytes: specification) }
        var installer = CollectionRoutes.Installer(service: service, router: router)
        CollectionRegistry.visitAll(&installer)
        router = installer.router
        SelectionRoute.add(to: &router, service: service)
        QuakeImportRoute.add(to: &router, service: service)
        MetricsRoute.add(to: &router, service: service, server: server)
        return router
    }
}
