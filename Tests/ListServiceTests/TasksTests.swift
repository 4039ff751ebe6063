import Foundation
import Testing

@testable import ListService

@Suite struct TasksTests {
    let now = ISO8601.parse("2026-11-20T12:00:00Z")!

    private func task(_ id: String, _ title: String, due: String, _ priority: TaskPriority, active: Bool = true, archived: Bool = false)
        -> TaskItem
    {
        TaskItem(id: id, title: title, isActive: active, isArchived: archived, dueDate: ISO8601.parse(due)!, priority: priority)
    }

    private var tasks: [TaskItem] {
        [
            task("t-1", "Write report", due: "2026-11-22T09:00:00Z", .high),
            task("t-2", "Call supplier", due: "2026-11-21T09:00:00Z", .urgent),
            task("t-3", "Fix crash", due: "2026-11-18T09:00:00Z", .urgent),
            task("t-4", "Plan offsite", due: "2026-11-23T09:00:00Z", .low),
            task("t-5", "Réviser budget", due: "2026-11-20T18:00:00Z", .medium),
            task("t-6", "Old idea", due: "2026-10-01T09:00:00Z", .high, archived: true),
            task("t-7", "Paused thing", due: "2026-12-01T09:00:00Z", .urgent, active: false),
        ]
    }

    private func rows(_ query: String, acceptLanguage: String? = nil) throws -> [[String: Any]] {
        let (page, _) = try list(Tasks.self, query, service: makeService(tasks: tasks, now: now), acceptLanguage: acceptLanguage)
        return page["items"] as? [[String: Any]] ?? []
    }

    private func ids(_ query: String) throws -> [String] { try rows(query).compactMap { $0["id"] as? String } }

    @Test func activeView_sortsByPriorityThenEarliestDue() throws {
        #expect(try ids("") == ["t-3", "t-2", "t-1", "t-5", "t-4"])
        #expect(try ids("sort=priority&order=asc") == ["t-4", "t-5", "t-1", "t-2", "t-3"])
    }

    @Test func views_andOtherSorts() throws {
        #expect(try ids("view=archived") == ["t-6"])
        #expect(try Set(ids("view=all")).count == 7)
        #expect(try ids("sort=dueDate") == ["t-3", "t-5", "t-2", "t-1", "t-4"])
        #expect(try ids("sort=title&order=desc") == ["t-1", "t-5", "t-4", "t-3", "t-2"])
        #expect(try ids("q=reviser") == ["t-5"], "diacritic-insensitive")
        #expect(try ids("q=CRASH") == ["t-3"])
    }

    @Test func rows_carryLabelsRelativeToNowInTheClientsZone() throws {
        let byID = Dictionary(uniqueKeysWithValues: try rows("view=all").map { ($0["id"] as? String ?? "", $0) })
        #expect(byID["t-5"]?["dueLabel"] as? String == "Due today")
        #expect(byID["t-5"]?["isOverdue"] as? Bool == false)
        #expect(byID["t-2"]?["dueLabel"] as? String == "Due tomorrow")
        #expect(byID["t-4"]?["dueLabel"] as? String == "Due in 3 days")
        #expect(byID["t-3"]?["dueLabel"] as? String == "Overdue by 2 days")
        #expect(byID["t-3"]?["isOverdue"] as? Bool == true)
        #expect(byID["t-3"]?["priorityLabel"] as? String == "Urgent")
        #expect(byID["t-3"]?["formattedDueDate"] as? String == "Nov 18, 2026 at 9:00\u{202F}AM")
        // In Tokyo it is already Nov 20 21:00, so t-2 (Nov 21 18:00 there) is still tomorrow, t-5 (Nov 21 03:00) too.
        let tokyo = Dictionary(uniqueKeysWithValues: try rows("view=all&tz=Asia/Tokyo").map { ($0["id"] as? String ?? "", $0) })
        #expect(tokyo["t-5"]?["dueLabel"] as? String == "Due tomorrow")
        let german = try rows("q=crash", acceptLanguage: "de-DE").first
        #expect(german?["dueLabel"] as? String == "Seit 2 Tagen überfällig")
        #expect(german?["priorityLabel"] as? String == "Dringend")
    }

    /// The days of a due label are written as the locale writes numbers.
    @Test func aDueLabelsDays_areWrittenAsTheLocaleDoes() throws {
        let far = [
            task("t-1", "Far off", due: "2030-04-07T12:00:00Z", .low), task("t-2", "Long late", due: "2022-10-12T12:00:00Z", .low),
        ]
        func labels(_ query: String) throws -> [String: String] {
            let (page, _) = try list(Tasks.self, "tz=UTC&" + query, service: makeService(tasks: far, now: now))
            return Dictionary(
                uniqueKeysWithValues: (page["items"] as? [[String: Any]] ?? []).map {
                    ($0["id"] as? String ?? "", $0["dueLabel"] as? String ?? "")
                })
        }
        #expect(try labels("locale=en-US") == ["t-1": "Due in 1,234 days", "t-2": "Overdue by 1,500 days"])
        #expect(try labels("locale=de-DE") == ["t-1": "Fällig in 1.234 Tagen", "t-2": "Seit 1.500 Tagen überfällig"])
        #expect(try labels("locale=ja-JP") == ["t-1": "1,234日後が期限", "t-2": "1,500日超過"])
    }

    @Test func tasksThatAreNotOpen_areNeverOverdue_andSaySo() throws {
        let inactiveOverdue = task("t-8", "Paused and late", due: "2026-10-01T09:00:00Z", .low, active: false)
        let service = makeService(tasks: tasks + [inactiveOverdue], now: now)
        let (page, _) = try list(Tasks.self, "view=all", service: service)
        let byID = Dictionary(uniqueKeysWithValues: (page["items"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) })
        #expect(byID["t-6"]?["dueLabel"] as? String == "Archived", "an archived task 50 days past due")
        #expect(byID["t-6"]?["isOverdue"] as? Bool == false)
        #expect(byID["t-6"]?["isArchived"] as? Bool == true)
        #expect(byID["t-8"]?["dueLabel"] as? String == "Inactive")
        #expect(byID["t-8"]?["isOverdue"] as? Bool == false)
        #expect(byID["t-8"]?["isActive"] as? Bool == false)
        #expect(byID["t-3"]?["isActive"] as? Bool == true && byID["t-3"]?["isArchived"] as? Bool == false)
        let (german, _) = try list(Tasks.self, "view=archived&locale=de-DE", service: service)
        #expect((german["items"] as? [[String: Any]])?.first?["dueLabel"] as? String == "Archiviert")
        // No row of a page of closed tasks changes by itself: only its counts (overdue, due today) do.
        let archived = try ListCriteria<Tasks>(ListRequest(parameters: [("view", "archived")]), now: now)
        let (closed, _) = try service.engine(Tasks.self).page(for: archived)
        #expect(closed.validUntil == service.engine(Tasks.self).counts(for: archived).validUntil)
        #expect(closed.validUntil <= CalendarDays.day(containing: service.now, in: "UTC").upperBound)
    }

    @Test func badView_namesTheParameter() {
        #expect(throws: ListServiceError.self) { try rows("view=done") }
        do {
            _ = try rows("view=done")
        } catch let error as ListServiceError {
            #expect(error.parameter == "view")
            #expect(error.allowedValues == ["active", "archived", "all"])
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func pagesWithRelativeLabels_expireAtTheNextChange() throws {
        let service = makeService(tasks: tasks, now: now)
        let (page, _) = try service.engine(Tasks.self).page(for: ListCriteria<Tasks>(ListRequest(parameters: []), now: now))
        // t-5 falls due at 18:00 today, before midnight: isOverdue flips then.
        #expect(page.validUntil == ISO8601.parse("2026-11-20T18:00:00Z"))
    }
}
