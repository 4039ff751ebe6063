import Foundation

/// A client of one ListService: its lists as pages or live, and each collection's writes.
///
///     let client = ListServiceClient(baseURL: URL(string: "https://lists.example.com")!)
///     let page = try await client.page(OrderQuery(filter: .pending, search: "john"))
///     let live = client.live(UserQuery(sort: .taps, order: .descending))   // on the main actor
///     try await client.users.tap(live.rows[0].id)
///
/// Every request carries the client's session (`X-Session-ID`) and, when a token provider
/// is given, `Authorization: Bearer <token>`; a 401 asks the provider once more. All live
/// lists of one client share one connection (the service's multiplexed `/live` stream).
public final class ListServiceClient: Sendable {
    public let orders: OrdersEndpoint
    public let tasks: TasksEndpoint
    public let users: UsersEndpoint
    public let quakes: QuakesEndpoint
    let transport: HTTPTransport
    let stream: LiveStream

    /// - Parameters:
    ///   - baseURL: where the service answers, `http://127.0.0.1:8080`.
    ///   - display: the locale and zone writes answer in (lists take theirs from their query).
    ///   - sessionID: the session the service keeps this client's view-models under.
    ///   - reconnect: how a dropped live stream comes back.
    ///   - tokenProvider: the caller's bearer token, asked before requests and once more after a 401.
    public init(
        baseURL: URL, display: Display = .device, sessionID: String = UUID().uuidString.lowercased(),
        reconnect: ReconnectPolicy = ReconnectPolicy(), tokenProvider: (@Sendable () async throws -> String?)? = nil
    ) {
        transport = HTTPTransport(baseURL: baseURL, sessionID: sessionID, tokenProvider: tokenProvider)
        stream = LiveStream(transport: transport, policy: reconnect)
        orders = OrdersEndpoint(transport: transport, display: display)
        tasks = TasksEndpoint(transport: transport, display: display)
        users = UsersEndpoint(transport: transport, display: display)
        quakes = QuakesEndpoint(transport: transport, display: display)
    }

    /// One page of `query`'s list: the first, or the one `cursor` (a `nextCursor`, a
    /// section's `cursor`) or `offset` opens, or the one centred on the item `around` names
    /// (a deep link; its `index` says where it sits).
    public func page<Query: ListQuery>(_ query: Query, cursor: String? = nil, offset: Int? = nil, around: String? = nil)
        async throws(ListServiceError) -> ListPage<Query.Row>
    {
        let extra =
            parameter("limit", Query.isPaged ? query.limit.map(String.init) : nil)
            + parameter("cursor", cursor.flatMap { $0.isEmpty ? nil : $0 })
            + parameter("offset", offset.map(String.init)) + parameter("around", around)
        return try await transport.send("GET", query.path + query.queryString(extra), as: ListPage<Query.Row>.self)
    }

    /// `query`'s list, live: it opens at once and follows every change until closed or released.
    @MainActor
    public func live<Query: ListQuery>(_ query: Query) -> LiveList<Query.Row> {
        LiveList(query, stream: stream)
    }
}
