/// Maps method and path to a handler. Unknown paths get 404, a known path with another
/// method 405 with `Allow`; HEAD is served by the GET handler and OPTIONS answered from the
/// routes. Build it, then hand `handle` to the server.
public struct Router: Sendable {
    public typealias Handler = @Sendable (Request) throws -> Response
    /// A route's check of a request's head, before its body is read (the media type it takes).
    public typealias HeadCheck = @Sendable (Request) throws(HTTPError) -> Void

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: PathPattern
        /// The largest body this route takes; nil: `defaultMaxBodyBytes`.
        let maxBodyBytes: Int?
        /// Whether it may change data (every unsafe method's route unless it says otherwise).
        let changesData: Bool
        let headCheck: HeadCheck?
        let handler: Handler
    }

    private var routes: [Route] = []
    /// Routes without parameters by their exact path (`/orders`): a request for one finds its
    /// routes in one lookup, without matching every pattern (and retaining each route) in turn.
    private var literalRoutes: [String: [Int]] = [:]
    /// The routes with parameters, matched pattern by pattern.
    private var parameterRoutes: [Int] = []
    /// The largest body a route takes unless it says otherwise.
    public var defaultMaxBodyBytes: Int

    public init(defaultMaxBodyBytes: Int = .max) { self.defaultMaxBodyBytes = defaultMaxBodyBytes }

    /// Adds a route; `path` may hold `:name` segments, captured into `Request.pathParameters`.
    /// `maxBodyBytes` overrides `defaultMaxBodyBytes` for it (an import takes a large body);
    /// `headCheck` refuses a request from its head, before its body is read (see `screen(_:)`),
    /// and runs again before `handler`, so the handler never repeats it. `changesData: false`
    /// declares an unsafe method's route that changes no data (see `changesData(_:)`).
    public mutating func add(
        _ method: HTTPMethod, _ path: String, maxBodyBytes: Int? = nil, headCheck: HeadCheck? = nil, changesData: Bool? = nil,
        handler: @escaping Handler
    ) {
        let pattern = PathPattern(path)
        if pattern.parameterCount == 0 {
            literalRoutes[path, default: []].append(routes.count)
        } else {
            parameterRoutes.append(routes.count)
        }
        routes.append(
            Route(
                method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, changesData: changesData ?? !method.isSafe,
                headCheck: headCheck, handler: handler))
    }

    public mutating func get(_ path: String, handler: @escaping Handler) { add(.get, path, handler: handler) }
    public mutating func post(_ path: String, maxBodyBytes: Int? = nil, headCheck: HeadCheck? = nil, handler: @escaping Handler) {
        add(.post, path, maxBodyBytes: maxBodyBytes, headCheck: headCheck, handler: handler)
    }
    public mutating func put(_ path: String, headCheck: HeadCheck? = nil, changesData: Bool? = nil, handler: @escaping Handler) {
        add(.put, path, headCheck: headCheck, changesData: changesData, handler: handler)
    }
    public mutating func patch(_ path: String, headCheck: HeadCheck? = nil, handler: @escaping Handler) {
        add(.patch, path, headCheck: headCheck, handler: handler)
    }
    public mutating func delete(_ path: String, headCheck: HeadCheck? = nil, changesData: Bool? = nil, handler: @escaping Handler) {
        add(.delete, path, headCheck: headCheck, changesData: changesData, handler: handler)
    }

    /// Whether `request` may change data: false for a safe method (no lookup), else what its
    /// route declares (true for a request no route takes). Access checks ask this, so a route
    /// that only changes what the caller's own stream carries needs what a read needs.
    public func changesData(_ request: Request) -> Bool {
        guard !request.method.isSafe else { return false }
        return route(for: request.method, in: matches(request.path))?.route.changesData ?? true
    }

    /// Judges a request with a body from its head alone (for a `HeadScreen`): 404 when no
    /// route has its path, 405 for a method the path does not take, its route's `headCheck`;
    /// else returns the largest body its route takes.
    public func screen(_ head: Request) throws(HTTPError) -> Int {
        let matching = matches(head.path)
        guard let (route, _) = route(for: head.method, in: matching) else {
            if head.method == .options { return defaultMaxBodyBytes }  // answered from the routes, see `handle`
            throw Self.refusal(of: head, allowed: Set(matching.map(\.route.method)))
        }
        try route.headCheck?(head)
        return route.maxBodyBytes ?? defaultMaxBodyBytes
    }

    /// The routes whose pattern matches `path`: the most specific ones (`/quakes/import` over
    /// `/quakes/:id`, for every method).
    private func matches(_ path: String) -> [(route: Route, parameters: [String: String])] {
        // A literal pattern matches only its own path, and nothing is more specific.
        if let literal = literalRoutes[path] { return literal.map { (routes[$0], [:]) } }
        let segments = PathPattern.split(path)
        var matching: [(route: Route, parameters: [String: String])] = []
        var fewestParameters = Int.max
        for index in parameterRoutes where routes[index].pattern.parameterCount <= fewestParameters {
            let route = routes[index]
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
        Self.first(taking: method, among: matching) { $0.route.method }
    }

    /// The route among the literal routes `indices` that handles `method` (HEAD falls back to GET).
    private func literalRoute(for method: HTTPMethod, among indices: [Int]) -> Route? {
        Self.first(taking: method, among: indices) { routes[$0].method }.map { routes[$0] }
    }

    /// The first candidate whose route takes `method`; for HEAD, else the first that takes GET.
    private static func first<T>(taking method: HTTPMethod, among candidates: [T], methodOf: (T) -> HTTPMethod) -> T? {
        candidates.first { methodOf($0) == method } ?? (method == .head ? candidates.first { methodOf($0) == .get } : nil)
    }

    /// Routes one request.
    public func handle(_ request: Request) throws -> Response {
        if request.path == "*" && request.method == .options {
            return optionsResponse(allowed: Set(routes.map(\.method)))
        }
        // A literal path's route runs as is: no list of matches made, no copy of the request.
        if let indices = literalRoutes[request.path], let route = literalRoute(for: request.method, among: indices) {
            try route.headCheck?(request)
            return try route.handler(request)
        }
        let matching = matches(request.path)
        if let (route, parameters) = route(for: request.method, in: matching) {
            var routed = request
            routed.pathParameters = parameters
            try route.headCheck?(routed)  // again for the whole request: a check may look at the body too
            return try route.handler(routed)
        }
        let allowed = Set(matching.map(\.route.method))
        if request.method == .options && !allowed.isEmpty { return optionsResponse(allowed: allowed) }
        throw Self.refusal(of: request, allowed: allowed)
    }

    /// 404 for a path no route has (`allowed` empty), else 405 with the methods it takes.
    private static func refusal(of request: Request, allowed: Set<HTTPMethod>) -> HTTPError {
        guard !allowed.isEmpty else {
            return HTTPError(.notFound, code: "not-found", detail: "No resource at '\(request.path)'.")
        }
        return HTTPError(
            .methodNotAllowed, code: "method-not-allowed",
            detail: "\(request.method.rawValue) is not allowed on '\(request.path)'.",
            headers: ["Allow": allowHeader(allowed)])
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
