import HTTPLite
import ListService

/// `GET /`: the web front end; `GET /app/:version/:file`: its scripts, styles and images.
enum WebRoutes {
    static func add(_ app: WebApp, to router: inout Router) {
        router.get("/") { request in app.index.response(to: request) }
        router.get("/app/:version/:file") { request in
            guard let version = request.pathParameters["version"], let file = request.pathParameters["file"],
                let asset = app.asset(named: file, version: version)
            else {
                throw HTTPError(.notFound, code: "not-found", detail: "No such file of the web front end (version \(app.version)).")
            }
            return asset.response(to: request)
        }
    }
}
