/// The tap counter's writes.
public struct UsersEndpoint: Sendable {
    let transport: HTTPTransport
    let display: Display

    private struct Name: Encodable {
        var name: String
    }

    public func detail(_ id: String) async throws(ListServiceError) -> UserRow {
        try await transport.send("GET", itemPath(id), as: UserRow.self)
    }

    /// One more tap, durable before it answers.
    @discardableResult
    public func tap(_ id: String) async throws(ListServiceError) -> UserRow {
        try await transport.send("POST", itemPath(id, "/tap"), as: UserRow.self)
    }

    public func create(name: String) async throws(ListServiceError) -> UserRow {
        try await transport.send("POST", "/users" + display.query, body: Name(name: name), as: UserRow.self)
    }

    public func rename(_ id: String, to name: String, ifMatch version: String? = nil) async throws(ListServiceError) -> UserRow {
        try await transport.send("PATCH", itemPath(id), body: Name(name: name), headers: ifMatch(version), as: UserRow.self)
    }

    public func delete(_ id: String, ifMatch version: String? = nil) async throws(ListServiceError) {
        try await transport.sendForData("DELETE", itemPath(id), headers: ifMatch(version))
    }

    /// What `bulk` does to each user: `tap` as its single tap, `delete` removes it.
    public enum BulkAction: String, Sendable {
        case tap, delete
    }

    /// One action on many users at once (up to 500): each decided as its single write would be
    /// (its `ifMatch` included), every accepted change saved in one durable batch.
    public func bulk(_ action: BulkAction, _ items: [BulkItem]) async throws(ListServiceError) -> BulkResult<UserRow> {
        try await transport.bulk("users", action.rawValue, items, display: display)
    }

    private func itemPath(_ id: String, _ action: String = "") -> String { "/users/\(id.percentEncoded)\(action)" + display.query }
}
