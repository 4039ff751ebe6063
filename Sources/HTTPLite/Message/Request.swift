/// A parsed HTTP request: the head, percent-decoded path and query, and the whole body.
public struct Request: Sendable {
    public var method: HTTPMethod
    public var version: HTTPVersion
    /// The path, percent-decoded (`+` stays a plus).
    public var path: String
    public var query: QueryParameters
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Named path parameters captured by the router (`/orders/:id` gives `id`).
    public var pathParameters: [String: String] = [:]
    /// The numeric address of the client's end of the connection (no port); nil for a request
    /// made in process.
    public var remoteAddress: String?
    /// What the application's front door learned of who sent the request (a verified
    /// identity), for its routes to read; HTTPLite itself neither sets nor reads it.
    public var sender: (any Sendable)?
    /// Its trace (W3C Trace Context): the caller's `traceparent` continued, or a new trace;
    /// the access log names it.
    public var trace: TraceContext

    public init(
        method: HTTPMethod, path: String, query: QueryParameters = QueryParameters(),
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], version: HTTPVersion = .http1_1
    ) {
        self.method = method
        self.version = version
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.trace = TraceContext(headers: headers)
    }

    /// Whether the client asked to keep the connection open after this exchange
    /// (RFC 9112 §9.3: 1.1 persists unless `close`; 1.0 only with `keep-alive`).
    public var wantsKeepAlive: Bool {
        switch version {
        case .http1_1: !headers.containsToken("close", in: "Connection")
        case .http1_0: headers.containsToken("keep-alive", in: "Connection")
        }
    }
}
