/// The tasks' writes and details.
public struct TasksEndpoint: Sendable {
    let transport: HTTPTransport
    let display: Display

    /// A task's fields; on `create`, `title` and `dueDate` are required, on `update` only
    /// what is given changes. `dueDate` is a timestamp or a date (the end of that day in the
    /// reader's zone).
    public struct Fields: Encodable, Sendable {
        public var title: String?
        public var dueDate: String?
        public var priority: String?
        public var isActive: Bool?
        public var isArchived: Bool?

        public init(title: String? = nil, dueDate: String? = nil, priority: String? = nil, isActive: Bool? = nil, isArchived: Bool? = nil) {
            (self.title, self.dueDate, self.priority, self.isActive, self.isArchived) = (title, dueDate, priority, isActive, isArchived)
        }
    }

    public func detail(_ id: String) async throws(ListServiceError) -> TaskDetail {
        try await transport.send("GET", itemPath(id), as: TaskDetail.self)
    }

    public func create(_ fields: Fields) async throws(ListServiceError) -> TaskDetail {
        try await transport.send("POST", "/tasks" + display.query, body: fields, as: TaskDetail.self)
    }

    public func update(_ id: String, _ fields: Fields, ifMatch version: String? = nil) async throws(ListServiceError) -> TaskDetail {
        try await transport.send("PATCH", itemPath(id), body: fields, headers: ifMatch(version), as: TaskDetail.self)
    }

    public func delete(_ id: String, ifMatch version: String? = nil) async throws(ListServiceError) {
        try await transport.sendForData("DELETE", itemPath(id), headers: ifMatch(version))
    }

    /// What `bulk` does to each task: `archive` sets `isArchived` (as an update would), `delete` removes it.
    public enum BulkAction: String, Sendable {
        case archive, delete
    }

    /// One action on many tasks at once (up to 500): each decided as its single write would be
    /// (its `ifMatch` included), every accepted change saved in one durable batch.
    public func bulk(_ action: BulkAction, _ items: [BulkItem]) async throws(ListServiceError) -> BulkResult<TaskDetail> {
        try await transport.bulk("tasks", action.rawValue, items, display: display)
    }

    private func itemPath(_ id: String) -> String { "/tasks/\(id.percentEncoded)" + display.query }
}
