import HTTPLite

/// The service's HTTP surface: every route, built once at start-up.
public enum ServiceRoutes {
    public static func makeRouter() -> Router {
        var router = Router()
        let health = Array(#"{"status":"ok"}"#.utf8)
        router.get("/health") { _ in .json(health) }
        let plaintext = Array("Hello, World!".utf8)
        router.get("/plaintext") { _ in Response(contentType: "text/plain; charset=utf-8", bytes: plaintext) }
        return router
    }
}
