import Foundation

/// Tasks fall into "Overdue", "Today", "Tomorrow", "This week" (to the end of the client's
/// week, by its locale's first day) and "Later" by due date (`due`, sorted by due date), or
/// into priorities (`priority`); each section's summary says how many of its tasks are overdue.
extension Tasks {
    package enum Grouping: String, ListChoice {
        case due, priority
    }

    /// The due sections in order: before now, then up to each boundary after it.
    private enum DueSection: Int64, CaseIterable {
        case overdue, today, tomorrow, thisWeek, later

        var key: String { String(describing: self) }
    }

    package static func sortField(for grouping: Grouping) -> SortField {
        grouping == .due ? .dueDate : .priority
    }

    package static func section(of task: TaskItem, grouping: Grouping, in context: SectionContext) -> Int64 {
        switch grouping {
        case .due: dueSection(of: task.dueDate, in: context).rawValue
        case .priority: Int64(task.priority.rank)
        }
    }

    /// Each boundary after now, in order; "This week" is empty when tomorrow is already next week.
    private static func dueSection(of due: Date, in context: SectionContext) -> DueSection {
        if due < context.now { return .overdue }
        if due < context.nextMidnight { return .today }
        if context.timeZone.localDay(of: due) == context.today + 1 { return .tomorrow }
        return due < context.endOfWeek ? .thisWeek : .later
    }

    package static func sectionKey(_ section: Int64, grouping: Grouping, in context: SectionContext) -> String {
        switch grouping {
        case .due: (DueSection(rawValue: section) ?? .later).key
        case .priority: priority(ranked: section).rawValue
        }
    }

    /// Due sections move at midnight (and as tasks fall due: see the tally's expiry).
    package static func heading(
        of section: Int64, grouping: Grouping, in context: SectionContext, writing row: inout RowContext<TaskPhrases>
    ) -> (title: String, subtitle: String?, validUntil: Date?) {
        guard grouping == .due else { return (row.phrases.priority(priority(ranked: section)), nil, nil) }
        let days = SectionPhrases.translations.phrases(for: context.display.localeTag)
        let title =
            switch DueSection(rawValue: section) ?? .later {
            case .overdue: row.phrases.overdue
            case .today: days.today
            case .tomorrow: days.tomorrow
            case .thisWeek: row.phrases.thisWeek
            case .later: row.phrases.later
            }
        return (title, nil, context.nextMidnight)
    }

    /// Counts the overdue tasks.
    package static func summarizes(_ grouping: Grouping) -> Bool { true }

    package static func summaryValue(of task: UnsafePointer<TaskItem>, grouping: Grouping, in context: SectionContext) -> Int64 {
        isOpen(task) && task.pointee.dueDate < context.now ? 1 : 0  // `TaskItem.isOverdue`, read in place
    }

    /// An open task not yet due becomes overdue at its due time.
    package static func summaryExpiry(of task: UnsafePointer<TaskItem>, grouping: Grouping, in context: SectionContext) -> Date? {
        isOpen(task) && task.pointee.dueDate >= context.now ? task.pointee.dueDate : nil
    }

    /// `TaskItem.isOpen`, read in place.
    private static func isOpen(_ task: UnsafePointer<TaskItem>) -> Bool { task.pointee.isActive && !task.pointee.isArchived }

    package static func summary(of total: Int64, grouping: Grouping, in context: inout RowContext<TaskPhrases>) -> String? {
        total > 0 ? context.phrases.overdueCount(context.formatting.count(Int(total))) : nil
    }

    private static func priority(ranked rank: Int64) -> TaskPriority {
        TaskPriority.allCases[Int(min(max(rank, 0), Int64(TaskPriority.allCases.count - 1)))]
    }
}
