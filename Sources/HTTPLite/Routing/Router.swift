/// Maps method and path to a handler. Unknown paths get 404, a known path with another
/// method 405 with `Allow`; HEAD is served by the GET handler and OPTIONS answered from the
/// routes. Build it, then hand `handle` to the server.
public struct Router: Sendable {
    public typealias Handler = @Sendable (Request) throws -> Response

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: PathPattern
        /// The largest body this route takes; nil: `defaultMaxBodyBytes`.
        let maxBodyBytes: Int?
        let handler: Handler
    }

    private var routes: [Route] = []
    /// The largest body a route takes unless it says otherwise.
    public var defaultMaxBodyBytes: Int

    public init(defaultMaxBodyBytes: Int = .max) { self.defaultMaxBodyBytes = defaultMaxBodyBytes }

    /// Adds a route; `path` may hold `:name` segments, captured into `Request.pathParameters`.
    /// `maxBodyBytes` overrides `defaultMaxBodyBytes` for it (an import takes a large body).
    public mutating func add(_ method: HTTPMethod, _ path: String, maxBodyBytes: Int? = nil, handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: PathPattern(path), maxBodyBytes: maxBodyBytes, handler: handler))
    }

    public mutating func get(_ path: String, handler: @escaping Handler) { add(.get, path, handler: handler) }
    public mutating func post(_ path: String, maxBodyBytes: Int? = nil, handler: @escaping Handler) {
        add(.post, path, maxBodyBytes: maxBodyBytes, handler: handler)
    }
    public mutating func put(_ path: String, handler: @escaping Handler) { add(.put, path, handler: handler) }
    public mutating func patch(_ path: String, handler: @escaping Handler) { add(.patch, path, handler: handler) }
    public mutating func delete(_ path: String, handler: @escaping Handler) { add(.delete, path, handler: handler) }

    /// The largest body the route for `method` and `path` takes (for `ServerConfiguration.bodyLimit`).
    public func maxBodyBytes(for method: HTTPMethod, path: String) -> Int {
        route(for: method, in: matches(path))?.route.maxBodyBytes ?? defaultMaxBodyBytes
    }

    /// The routes whose pattern matches `path`: the most specific ones (`/quakes/import` over
    /// `/quakes/:id`, for every method).
    private func matches(_ path: String) -> [(route: Route, parameters: [String: String])] {
        let segments = PathPattern.split(path)
        var matching: [(route: Route, parameters: [String: String])] = []
        var fewestParameters = Int.max
        for route in routes where route.pattern.parameterCount <= fewestParameters {
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.pattern.parameterCount < fewestParameters {
                fewestParameters = route.pattern.parameterCount
                matching.removeAll(keepingCapacity: true)
            }
            matching.append((route, parameters))
        }
        return matching
    }

    /// The route among `matching` that handles `method` (HEAD falls back to GET).
    private func route(
        for method: HTTPMethod, in matching: [(route: Route, parameters: [String: String])]
    ) -> (route: Route, parameters: [String: String])? {
        matching.first { $0.route.method == method } ?? (method == .head ? matching.first { $0.route.method == .get } : nil)
    }

    /// Routes one request.
    public func handle(_ request: Request) throws -> Response {
        if request.path == "*" && request.method == .options {
            return optionsResponse(allowed: Set(routes.map(\.method)))
        }
        let matching = matches(request.path)
        if let (route, parameters) = route(for: request.method, in: matching) {
            var routed = request
            routed.pathParameters = parameters
            return try route.handler(routed)
        }
        let allowed = Set(matching.map(\.route.method))
        guard !allowed.isEmpty else {
            throw HTTPError(.notFound, code: "not-found", detail: "No resource at '\(request.path)'.")
        }
        if request.method == .options { return optionsResponse(allowed: allowed) }
        throw HTTPError(
            .methodNotAllowed, code: "method-not-allowed",
            detail: "\(request.method.rawValue) is not allowed on '\(request.path)'.",
            headers: ["Allow": Self.allowHeader(allowed)])
    }

    private func optionsResponse(allowed: Set<HTTPMethod>) -> Response {
        Response(status: .noContent, headers: ["Allow": Self.allowHeader(allowed)])
    }

    /// The methods in a stable order, with HEAD beside GET and OPTIONS always.
    static func allowHeader(_ methods: Set<HTTPMethod>) -> String {
        var all = methods
        all.insert(.options)
        if all.contains(.get) { all.insert(.head) }
        return HTTPMethod.allCases.filter(all.contains).map(\.rawValue).joined(separator: ", ")
    }
}
