/// The columns of a tasks export: the row's display fields for a spreadsheet, the stored
/// values (ISO due date) for a machine.
extension Tasks {
    package static let exportColumns = [
        .id,
        ExportColumn("title", en: "Title", de: "Titel", fr: "Titre", es: "Título", ja: "件名"),
        ExportColumn("priorityLabel", en: "Priority", de: "Priorität", fr: "Priorité", es: "Prioridad", ja: "優先度"),
        ExportColumn("formattedDueDate", en: "Due", de: "Fällig", fr: "Échéance", es: "Vence", ja: "期限"),
        ExportColumn("dueLabel", en: "When", de: "Wann", fr: "Quand", es: "Cuándo", ja: "いつ"),
        ExportColumn("isOverdue", en: "Overdue", de: "Überfällig", fr: "En retard", es: "Vencida", ja: "期限切れ"),
        ExportColumn("isActive", en: "Active", de: "Aktiv", fr: "Active", es: "Activa", ja: "有効"),
        ExportColumn("isArchived", en: "Archived", de: "Archiviert", fr: "Archivée", es: "Archivada", ja: "アーカイブ済み"),
    ]

    package static let rawExportFields = ["id", "ownerId", "title", "priority", "dueDate", "isActive", "isArchived"]

    package static func writeRawRow(_ task: TaskItem, to json: inout JSONWriter) {
        json.field("id", task.id)
        json.field("ownerId", task.owner.text)
        json.field("title", task.title)
        json.field("priority", task.priority.rawValue)
        json.field("dueDate", ISO8601.format(task.dueDate))
        json.field("isActive", task.isActive)
        json.field("isArchived", task.isArchived)
    }
}
