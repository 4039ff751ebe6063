import Foundation

/// A to-do item with its rules. (Named `TaskItem`, as Swift's `Task` is taken.)
package struct TaskItem: Sendable, Equatable {
    package var id: String
    package var title: String
    package var isActive: Bool
    package var isArchived: Bool
    package var dueDate: Date
    package var priority: TaskPriority
    /// The account the task belongs to (`ownerId`).
    package var owner: OwnerID

    package init(
        id: String, title: String, isActive: Bool, isArchived: Bool, dueDate: Date, priority: TaskPriority, owner: OwnerID = .none
    ) {
        self.id = id
        self.title = title
        self.isActive = isActive
        self.isArchived = isArchived
        self.dueDate = dueDate
        self.priority = priority
        self.owner = owner
    }

    /// Still to be done: active and not archived. Only an open task can be overdue.
    package var isOpen: Bool { isActive && !isArchived }

    /// Open and past its due time.
    package func isOverdue(at now: Date) -> Bool { isOpen && dueDate < now }
}

/// How urgent a task is; `urgent` sorts first.
package enum TaskPriority: String, Sendable, CaseIterable {
    case low, medium, high, urgent

    /// 0 for low up to 3 for urgent.
    package var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

extension TaskItem {
    /// Decodes one task in the shared data format.
    package init(json: JSONValue, path: String) throws(JSONFieldError) {
        let fields = try JSONFields(json, path: path)
        let dueText = try fields.string("dueDate")
        guard let due = ISO8601.parse(dueText) else {
            throw JSONFieldError(path: fields.fieldPath("dueDate"), reason: "'\(dueText)' is not an ISO 8601 timestamp")
        }
        let priorityText = try fields.string("priority")
        guard let priority = TaskPriority(rawValue: priorityText) else {
            throw JSONFieldError(path: fields.fieldPath("priority"), reason: "'\(priorityText)' is not low, medium, high or urgent")
        }
        let id = try fields.string("id")
        guard !id.isEmpty else { throw JSONFieldError(path: fields.fieldPath("id"), reason: "is empty") }
        self.init(
            id: id, title: try fields.nonBlankString("title"), isActive: try fields.bool("isActive"),
            isArchived: try fields.bool("isArchived"), dueDate: due, priority: priority,
            owner: OwnerID(try fields.optionalString("ownerId") ?? ""))
    }
}
