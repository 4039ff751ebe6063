/// The words task rows show, per language.
package struct TaskPhrases: Sendable {
    let priorities: [TaskPriority: String]
    let dueToday: String
    let dueTomorrow: String
    /// "Due in 3 days", "Overdue by 1,200 days": the days, and them as the locale writes numbers.
    let dueInDays: @Sendable (_ days: Int, _ shown: String) -> String
    let overdueByDays: @Sendable (_ days: Int, _ shown: String) -> String
    /// The due label of an archived task, and of an inactive one: neither is due.
    let archived: String
    let inactive: String
    /// Section headings of a list grouped by due date beside "Today" and "Tomorrow".
    let overdue: String
    let thisWeek: String
    let later: String
    /// A section's summary: "3 overdue", given the count formatted.
    let overdueCount: @Sendable (String) -> String

    func priority(_ priority: TaskPriority) -> String { priorities[priority] ?? priority.rawValue }

    /// An open task's "Due today", "Due tomorrow", "Due in 3 days", "Overdue by 2 days" (`days`
    /// from today to the due day, in calendar days of the client's zone, written by `count`);
    /// "Archived" or "Inactive" for a task that is not open, whose due date no longer urges anything.
    func due(_ task: TaskItem, inDays days: Int, count: (Int) -> String) -> String {
        if task.isArchived { return archived }
        if !task.isActive { return inactive }
        switch days {
        case 0: return dueToday
        case 1: return dueTomorrow
        case 2...: return dueInDays(days, count(days))
        default: return overdueByDays(-days, count(-days))
        }
    }

    static let translations = Translations(
        english: TaskPhrases(
            priorities: [.low: "Low", .medium: "Medium", .high: "High", .urgent: "Urgent"],
            dueToday: "Due today", dueTomorrow: "Due tomorrow", dueInDays: { "Due in \($1) days" },
            overdueByDays: { $0 == 1 ? "Overdue by 1 day" : "Overdue by \($1) days" }, archived: "Archived", inactive: "Inactive",
            overdue: "Overdue", thisWeek: "This week", later: "Later", overdueCount: { "\($0) overdue" }),
        [
            "de": TaskPhrases(
                priorities: [.low: "Niedrig", .medium: "Mittel", .high: "Hoch", .urgent: "Dringend"],
                dueToday: "Heute fällig", dueTomorrow: "Morgen fällig", dueInDays: { "Fällig in \($1) Tagen" },
                overdueByDays: { $0 == 1 ? "Seit 1 Tag überfällig" : "Seit \($1) Tagen überfällig" }, archived: "Archiviert",
                inactive: "Inaktiv", overdue: "Überfällig", thisWeek: "Diese Woche", later: "Später",
                overdueCount: { "\($0) überfällig" }),
            "fr": TaskPhrases(
                priorities: [.low: "Basse", .medium: "Moyenne", .high: "Haute", .urgent: "Urgente"],
                dueToday: "À rendre aujourd’hui", dueTomorrow: "À rendre demain", dueInDays: { "À rendre dans \($1) jours" },
                overdueByDays: { $0 == 1 ? "En retard de 1 jour" : "En retard de \($1) jours" }, archived: "Archivée",
                inactive: "Inactive", overdue: "En retard", thisWeek: "Cette semaine", later: "Plus tard",
                overdueCount: { "\($0) en retard" }),
            "es": TaskPhrases(
                priorities: [.low: "Baja", .medium: "Media", .high: "Alta", .urgent: "Urgente"],
                dueToday: "Vence hoy", dueTomorrow: "Vence mañana", dueInDays: { "Vence en \($1) días" },
                overdueByDays: { $0 == 1 ? "Vencida hace 1 día" : "Vencida hace \($1) días" }, archived: "Archivada",
                inactive: "Inactiva", overdue: "Vencidas", thisWeek: "Esta semana", later: "Más adelante",
                overdueCount: { "\($0) vencidas" }),
            "ja": TaskPhrases(
                priorities: [.low: "低", .medium: "中", .high: "高", .urgent: "緊急"],
                dueToday: "今日が期限", dueTomorrow: "明日が期限", dueInDays: { "\($1)日後が期限" },
                overdueByDays: { "\($1)日超過" }, archived: "アーカイブ済み", inactive: "無効",
                overdue: "期限切れ", thisWeek: "今週", later: "それ以降", overdueCount: { "期限切れ \($0)件" }),
        ])
}
