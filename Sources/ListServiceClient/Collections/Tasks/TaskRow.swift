/// One task as a list shows it.
public struct TaskRow: ListRow {
    public var id: String
    public var title: String
    /// `low`, `medium`, `high` or `urgent`.
    public var priority: String
    public var priorityLabel: String
    public var formattedDueDate: String
    public var isActive: Bool
    public var isArchived: Bool
    public var isOverdue: Bool
    /// "Due tomorrow", "Overdue by 2 days", "Archived", in the reader's language and zone.
    public var dueLabel: String
    public var version: String
    public var sectionKey: String?
}

/// One task in full: its row and the raw due date (ISO 8601).
public struct TaskDetail: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var priority: String
    public var priorityLabel: String
    public var formattedDueDate: String
    public var isActive: Bool
    public var isArchived: Bool
    public var isOverdue: Bool
    public var dueLabel: String
    public var dueDate: String
    public var version: String
}
