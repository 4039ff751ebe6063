import Foundation

/// Creating and editing tasks.
extension Tasks: EditableCollection {
    package static func sequence(of id: String) -> Int? {
        id.hasPrefix("t-") ? Int(id.dropFirst(2)) : nil
    }

    /// The id the service gives its `sequence`th task: `t-000123`.
    static func id(sequence: Int) -> String { "t-" + String(zeroPadded: sequence, width: 6) }

    static let fields = ["title", "priority", "dueDate", "isActive", "isArchived"]

    /// `POST /tasks/actions/archive`: archives every task it names.
    package static var extraBulkEdits: [String: ItemEdit] { ["archive": .patch(JSONObject([("isArchived", .bool(true))]))] }

    /// `POST /tasks`: `title` and `dueDate` required; `priority` defaults to medium, the task
    /// starts active and not archived unless told otherwise.
    package static func makeItem(from body: JSONObject, sequence: Int, context: EditContext) -> Result<TaskItem, WriteRejection> {
        var validator = FieldValidator(body)
        validator.rejectUnknown(fields + ["ownerId"])
        let owner: OwnerID
        // Everyone's new task is their own; administrators may name its owner (by default their own).
        let naming = context.newOwner(
            named: "ownerId", by: .admin, in: &validator, otherwise: context.caller.identity.map { OwnerID($0.subject) } ?? .none,
            refusal: .forbidden("create a task for someone else", allowed: "administrators"))
        switch naming {
        case .success(let account): owner = account
        case .failure(let refusal): return .failure(refusal)
        }
        let title = validator.text("title", maxLength: 200)
        let due = dueDate(&validator, isRequired: true, context: context)
        let priority = self.priority(&validator) ?? .medium
        let isActive = validator.bool("isActive", isRequired: false) ?? true
        let isArchived = validator.bool("isArchived", isRequired: false) ?? false
        if let rejection = validator.result { return .failure(rejection) }
        guard let title, let due else { return .failure(.invalid([])) }
        return .success(
            TaskItem(
                id: id(sequence: sequence), title: title, isActive: isActive,
                isArchived: isArchived, dueDate: due, priority: priority, owner: owner))
    }

    /// `PATCH /tasks/:id`: a JSON merge patch of title, priority, dueDate, isActive, isArchived.
    package static func patch(_ task: TaskItem, with body: JSONObject, context: EditContext) -> Result<TaskItem, WriteRejection> {
        var validator = FieldValidator(body)
        validator.rejectUnknown(fields)
        var patched = task
        if body["title"] != nil, let title = validator.text("title", maxLength: 200) { patched.title = title }
        if body["dueDate"] != nil, let due = dueDate(&validator, isRequired: true, context: context) { patched.dueDate = due }
        if body["priority"] != nil, let priority = priority(&validator) { patched.priority = priority }
        if body["isActive"] != nil, let isActive = validator.bool("isActive") { patched.isActive = isActive }
        if body["isArchived"] != nil, let isArchived = validator.bool("isArchived") { patched.isArchived = isArchived }
        if let rejection = validator.result { return .failure(rejection) }
        return .success(patched)
    }

    /// A timestamp (`2026-11-20T17:00:00Z`), or a date without a time as a date picker gives it
    /// (`2026-11-20`), which means the end of that day in the client's time zone (23:59:59
    /// there): due that day, overdue from the next midnight.
    private static func dueDate(_ validator: inout FieldValidator, isRequired: Bool, context: EditContext) -> Date? {
        guard let text = validator.text("dueDate", maxLength: 40, isRequired: isRequired) else { return nil }
        if let day = CalendarDays.day(named: text, in: context.timeZoneIdentifier) {
            return day.upperBound.addingTimeInterval(-1)
        }
        guard let date = ISO8601.parse(text) else {
            validator.report("dueDate", .dateOrTimestamp)
            return nil
        }
        return Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))  // journaled at whole seconds
    }

    private static func priority(_ validator: inout FieldValidator) -> TaskPriority? {
        guard let text = validator.text("priority", maxLength: 10, isRequired: false) else { return nil }
        guard let priority = TaskPriority(rawValue: text) else {
            validator.report("priority", .oneOf(TaskPriority.allCases.map(\.rawValue)))
            return nil
        }
        return priority
    }
}
