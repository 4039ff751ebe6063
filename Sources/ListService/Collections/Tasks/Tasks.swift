import Foundation

/// The tasks collection, declared for the engine: `GET /tasks?view=active&sort=priority`.
/// Filtering and sorting live here, in the view-model's engine, never in the client.
package enum Tasks: ListCollection {
    package typealias Item = TaskItem
    package typealias Scope = NoScope

    /// The named task lists.
    package enum View: String, ListChoice {
        case active, archived, all
    }

    package enum SortField: String, ListChoice {
        /// Urgent first, then the earliest due date.
        case priority
        case dueDate
        case title
    }

    /// What the views and the counts read.
    package struct FilterFields: Sendable {
        let isActive: Bool
        let isArchived: Bool
        let dueDate: Date

        /// Still to be done (`TaskItem.isOpen`).
        var isOpen: Bool { isActive && !isArchived }
    }

    package static let name = "tasks"
    package static let itemName = "task"
    package static let viewParameter: String? = "view"
    package static let defaultView = View.active
    package static let fileName = "tasks.json"

    package static func defaultSortField(for view: View) -> SortField { .priority }

    /// Priority reads best most urgent first; dates and titles in their natural order.
    package static func defaultDirection(for field: SortField, view: View) -> SortDirection {
        field == .priority ? .desc : .asc
    }

    package static func id(of task: TaskItem) -> String { task.id }

    package static func filterFields(of task: TaskItem) -> FilterFields {
        FilterFields(isActive: task.isActive, isArchived: task.isArchived, dueDate: task.dueDate)
    }

    /// The one definition of each view.
    package static func matches(_ fields: FilterFields, view: View, scope: NoScope) -> Bool {
        switch view {
        case .active: fields.isOpen
        case .archived: fields.isArchived
        case .all: true
        }
    }

    package static func holdsEveryItem(_ view: View) -> Bool { view == .all }

    package static let searchableFields: [@Sendable (TaskItem) -> String] = [{ $0.title }]

    package static func sortValue(of task: TaskItem, by field: SortField) -> SortValue {
        let due = task.dueDate.millisecondsSince1970
        switch field {
        // Descending gives urgent first and, within a priority, the earliest due first.
        case .priority: return .ranked(task.priority.rank, thenReversed: due)
        case .dueDate: return .number(due)
        case .title: return .text(task.title)
        }
    }

    package static func sortsByText(_ field: SortField) -> Bool { field == .title }

    package static let translations = TaskPhrases.translations

    package static func writeRow(_ task: TaskItem, in context: inout RowContext<TaskPhrases>, to json: inout JSONWriter) {
        json.field("id", task.id)
        json.field("title", task.title)
        json.field("priority", task.priority.rawValue)
        json.field("priorityLabel", context.phrases.priority(task.priority))
        json.field("formattedDueDate", context.formatting.mediumDateTime(task.dueDate))
        json.field("isActive", task.isActive)
        json.field("isArchived", task.isArchived)
        json.field("isOverdue", task.isOverdue(at: context.now))
        let days = context.calendarDays(until: task.dueDate)
        json.field("dueLabel", context.phrases.due(task, inDays: days, count: context.formatting.count))
    }

    /// The raw due date an edit form pre-fills.
    package static func writeDetail(_ task: TaskItem, in context: inout RowContext<TaskPhrases>, to json: inout JSONWriter) {
        json.field("dueDate", ISO8601.format(task.dueDate))
    }

    /// An open task's due label changes at the client's midnight, `isOverdue` at the due
    /// time; the row of a task that is not open never changes by itself.
    package static func rowExpiry(of task: TaskItem, in context: RowContext<TaskPhrases>) -> Date? {
        guard task.isOpen else { return nil }
        let midnight = context.today.upperBound
        return task.dueDate > context.now ? min(midnight, task.dueDate) : midnight
    }

    package static func makeDefaultItems(anchor: Date) -> [TaskItem] { DefaultTasks.make(anchor: anchor) }

    package static func owner(of task: TaskItem) -> OwnerID { task.owner }

    /// Everyone sees their own tasks, staff too; administrators, and an anonymous caller where
    /// one is let in, see every task.
    package static func readScope(for caller: Caller) -> AccessScope {
        guard let identity = caller.identity, !identity.role.isAdministrator else { return .everything }
        return .owner(OwnerID(identity.subject))
    }

    package static var isPublic: Bool { false }

    package static func decodeItem(_ value: JSONValue, path: String) throws(JSONFieldError) -> TaskItem {
        try TaskItem(json: value, path: path)
    }

    /// A task in the shared data format.
    package static func writeItem(_ task: TaskItem, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", task.id)
        if let ownerId = task.owner.text { json.field("ownerId", ownerId) }
        json.field("title", task.title)
        json.field("isActive", task.isActive)
        json.field("isArchived", task.isArchived)
        json.field("dueDate", ISO8601.format(task.dueDate))
        json.field("priority", task.priority.rawValue)
        json.endObject()
    }
}
