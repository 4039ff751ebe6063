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

/// One task in full: its row and the raw due date.
public struct TaskDetail: Decodable, Sendable, Equatable, Identifiable {
    /// What the list shows of it (the detail carries every field of its row).
    public var row: TaskRow
    /// ISO 8601.
    public var dueDate: String

    public var id: String { row.id }

    private enum CodingKeys: String, CodingKey { case dueDate }

    public init(from decoder: any Decoder) throws {
        row = try TaskRow(from: decoder)
        dueDate = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .dueDate)
    }
}
