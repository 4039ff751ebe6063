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

    private func itemPath(_ id: String) -> String { "/tasks/\(id.percentEncoded)" + display.query }
}
