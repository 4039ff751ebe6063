import Basics
import Foundation
import Testing

@testable import ListService

/// Every list answer's `counts`: equal to a count by brute force for every filter, search,
/// scope and zone, kept so by each change (not counted again), and stale when time makes it so.
@Suite struct ListCountsTests {
    static let anchor = ISO8601.parse("2026-11-30T23:30:00Z") ?? Date()
    static let big = OwnerID("c-big")
    /// Half the orders one customer's; a few unowned.
    static let orders = Order.owned(count: 3_000, anchor: anchor, mostlyBy: big)

    /// A clock that moves one second each time it is read (counts taken again would show it).
    final class TickingClock: Sendable {
        let now = Locked(ListCountsTests.anchor)
        func read() -> Date {
            now.withLock {
                $0 += 1; return $0
            }
        }
        func advance(by seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    static func criteria<C: ListCollection>(_ query: String, caller: Caller = .anonymous, now: Date, _: C.Type) throws -> ListCriteria<C> {
        let parameters = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (name: parts[0], value: parts.count > 1 ? parts[1] : "")
        }
        return try ListCriteria<C>(ListRequest(parameters: parameters, caller: caller), now: now)
    }

    /// The page's `counts` and `formattedCounts`.
    static func counts<C: ListCollection>(of criteria: ListCriteria<C>, in engine: CollectionEngine<C>) throws -> (
        [String: Int], [String: String]
    ) {
        let (page, _) = try engine.page(for: criteria)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
        return (try #require(body["counts"] as? [String: Int]), try #require(body["formattedCounts"] as? [String: String]))
    }

    static func bruteForce(_ orders: [Order], search: String, access: AccessScope, zone: String, now: Date) -> [String: Int] {
        let month = CalendarDays.month(containing: now, in: zone)
        let counted = orders.filter { access.admits($0.customer) && ListDefinition<Orders>.search(TextFolding.fold(search), finds: $0) }
        return Dictionary(
            uniqueKeysWithValues: OrderFilter.allCases.map { filter in
                (filter.rawValue, counted.count { filter.matches(Orders.filterFields(of: $0), currentMonth: month) })
            })
    }

    static func customer(_ account: OwnerID) -> Caller { .identified(Identity(subject: account.text ?? "", role: .customer)) }

    @Test func orderCounts_equalABruteForceCount_forEveryFilterSearchScopeAndZone_asOrdersChange() throws {
        let clock = TickingClock()
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { clock.read() })
        let staff = Caller.identified(Identity(subject: "staff", role: .staff))
        // At 23:30 UTC on 30 November it is already December in Kiritimati (+14).
        let lists: [(query: String, caller: Caller, access: AccessScope, search: String, zone: String)] = [
            ("limit=5&q=", staff, .everything, "", "UTC"), ("limit=5&q=jo", staff, .everything, "jo", "UTC"),
            ("limit=5&filter=pending&q=john", staff, .everything, "john", "UTC"),
            ("limit=5&q=order%20%231&tz=Pacific/Kiritimati", staff, .everything, "order #1", "Pacific/Kiritimati"),
            ("limit=5&filter=cancelled&q=", Self.customer(Self.big), .owner(Self.big), "", "UTC"),
            (
                "limit=5&filter=highValue&q=ann&tz=Pacific/Kiritimati", Self.customer(Self.big), .owner(Self.big), "ann",
                "Pacific/Kiritimati"
            ),
            ("limit=5&q=zzzz", staff, .everything, "zzzz", "UTC"),
        ]
        var orders = Self.orders
        func check(_ step: String) throws {
            for list in lists {
                let criteria = try Self.criteria(
                    list.query.removingPercentEncoding ?? list.query, caller: list.caller, now: engine.now, Orders.self)
                let (counts, _) = try Self.counts(of: criteria, in: engine)
                #expect(
                    counts == Self.bruteForce(orders, search: list.search, access: list.access, zone: list.zone, now: engine.now),
                    "\(step): \(list.query)")
            }
        }
        try check("first")
        let firstTaken = try engine.counts(for: Self.criteria("q=", caller: staff, now: engine.now, Orders.self)).takenAt
        var random = SplitMix64(seed: 30)
        for step in 0..<40 {
            var order = orders[random.below(orders.count)]
            switch step % 4 {
            case 0: order.status = [.pending, .completed, .cancelled][random.below(3)]
            case 1:
                order.id = "o-new-\(step)"
                order.customer = [Self.big, OwnerID("c-0002")][random.below(2)]
            case 2: order.total = Money(cents: Int64(random.below(2_000_000)))
            default: break
            }
            if step % 4 == 3 {
                orders.removeAll { $0.id == order.id }
                engine.apply([.delete(id: order.id)])
            } else {
                if let index = orders.firstIndex(where: { $0.id == order.id }) { orders[index] = order } else { orders.append(order) }
                engine.apply([.upsert(order)])
            }
            try check("after write \(step)")
        }
        let maintained = try engine.counts(for: Self.criteria("q=", caller: staff, now: engine.now, Orders.self))
        #expect(maintained.takenAt == firstTaken, "kept current by the writes, never counted again")
    }

    @Test func formattedCounts_groupDigitsAsTheLocaleDoes() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { Self.anchor })
        let staff = Caller.identified(Identity(subject: "staff", role: .staff))
        let (english, englishText) = try Self.counts(
            of: Self.criteria("locale=en-US", caller: staff, now: Self.anchor, Orders.self), in: engine)
        let (_, germanText) = try Self.counts(of: Self.criteria("locale=de-DE", caller: staff, now: Self.anchor, Orders.self), in: engine)
        #expect(english["all"] == 3_000)
        #expect(englishText["all"] == "3,000")
        #expect(germanText["all"] == "3.000")
    }

    /// A page's total is written as its counts are: "3,000", "3.000".
    @Test func aPagesFormattedTotal_groupsDigitsAsTheLocaleDoes() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            clock: { Self.anchor })
        let staff = Caller.identified(Identity(subject: "staff", role: .staff))
        for (locale, text) in [("en-US", "3,000"), ("de-DE", "3.000"), ("ja-JP", "3,000")] {
            let criteria = try Self.criteria("locale=\(locale)&limit=1", caller: staff, now: Self.anchor, Orders.self)
            let (page, _) = try engine.page(for: criteria)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
            #expect(body["total"] as? Int == 3_000)
            #expect(body["formattedTotal"] as? String == text, "\(locale)")
        }
    }

    @Test func taskCounts_overdueAndDueToday_inTheClientsZone_goStaleWhenATaskFallsDue() throws {
        let now = Self.anchor
        let tasks =
            DefaultTasks.make(count: 400, anchor: now) + [
                TaskItem(
                    id: "t-soon", title: "Falls due in a minute", isActive: true, isArchived: false, dueDate: now + 60, priority: .high)
            ]
        let clock = TickingClock()
        let engine = CollectionEngine(
            state: CollectionState<Tasks>(items: tasks), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { clock.read() })
        for zone in ["UTC", "America/Los_Angeles", "Asia/Tokyo"] {
            let at = engine.now
            let criteria = try Self.criteria("tz=\(zone)", now: at, Tasks.self)
            let (counts, _) = try Self.counts(of: criteria, in: engine)
            let taken = engine.counts(for: criteria).takenAt
            let today = CalendarDays.day(containing: taken, in: zone)
            let open = tasks.filter(\.isOpen)
            #expect(counts["all"] == tasks.count && counts["active"] == open.count, "\(zone)")
            #expect(counts["archived"] == tasks.count(where: \.isArchived), "\(zone)")
            #expect(counts["overdue"] == open.count { $0.dueDate < taken }, "\(zone)")
            #expect(counts["dueToday"] == open.count { today.contains($0.dueDate) }, "\(zone)")
        }
        let criteria = try Self.criteria("tz=UTC", now: engine.now, Tasks.self)
        let before = try Self.counts(of: criteria, in: engine).0["overdue"] ?? 0
        clock.advance(by: 120)
        let after = try Self.counts(of: criteria, in: engine).0["overdue"] ?? 0
        #expect(after == before + 1, "the task that fell due is counted overdue")
    }

    @Test func quakeCounts_bandTheDaysQuakesByMagnitude() throws {
        let quakes = DefaultQuakes.make(count: 3_000, anchor: Self.anchor)
        let engine = CollectionEngine(
            state: CollectionState<Quakes>(items: quakes), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { Self.anchor })
        for (query, zone) in [("tz=UTC", "UTC"), ("tz=Asia/Tokyo&q=a", "Asia/Tokyo")] {
            let criteria = try Self.criteria(query, now: Self.anchor, Quakes.self)
            let day = CalendarDays.day(containing: Self.anchor, in: zone)
            let search = criteria.foldedSearch
            let counted = quakes.filter { day.contains($0.time) && ListDefinition<Quakes>.search(search, finds: $0) }
            let (counts, _) = try Self.counts(of: criteria, in: engine)
            // Banded as each row shows its magnitude, to a tenth.
            func band(_ range: Range<Double>) -> Int {
                counted.count { $0.magnitude.map { range.contains(($0 * 10).rounded() / 10) } ?? false }
            }
            #expect(counted.count > 0)
            #expect(counts["all"] == counted.count)
            #expect(counts["under2"] == band(-.infinity..<2) && counts["2to4"] == band(2..<4), "\(query)")
            #expect(counts["4to6"] == band(4..<6) && counts["6plus"] == band(6..<Double.infinity), "\(query)")
        }
    }
}
