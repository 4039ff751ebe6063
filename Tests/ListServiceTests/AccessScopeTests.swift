import Basics
import Foundation
import Testing

@testable import ListService

/// Lists per access scope, without HTTP: an owner's list is the whole list kept to their
/// items, in the same order, however it was computed, and stays so as items change; a cursor
/// or a row of another scope is not served.
@Suite struct AccessScopeTests {
    static let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()
    /// An account holding half the orders (its lists are walked from the presorted order);
    /// every other account holds a few (their lists are sorted on their own).
    static let big = OwnerID("c-big")
    static let orders = Order.owned(count: 3_000, anchor: anchor, mostlyBy: big)

    static func customer(_ account: String) -> Caller { .identified(Identity(subject: account, role: .customer)) }

    func criteria(_ query: String, _ caller: Caller, now: Date = anchor) throws(ListServiceError) -> ListCriteria<Orders> {
        let parameters = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (name: parts[0], value: parts.count > 1 ? parts[1] : "")
        }
        return try ListCriteria<Orders>(ListRequest(parameters: parameters, caller: caller), now: now)
    }

    @Test func anOwnersList_isTheWholeListKeptToTheirItems_inTheSameOrder() throws {
        let state = CollectionState<Orders>(items: Self.orders)
        let small = Self.orders.first { $0.customer != Self.big && $0.customer != .none }?.customer ?? .none
        #expect(Self.orders.count { $0.customer == small } * 64 < Self.orders.count, "a small account")
        for view in OrderFilter.allCases {
            let scope = Orders.Scope(currentMonth: view == .currentMonth ? CalendarDays.month(containing: Self.anchor, in: "UTC") : nil)
            for sort in OrderSortField.allCases {
                for direction in SortDirection.allCases {
                    for search in ["", "john", "order #1"] {
                        let whole = state.evaluate(
                            ListDefinition(view: view, scope: scope, foldedSearch: search, sort: sort, direction: direction)
                        ).slots
                        for owner in [small, Self.big] {
                            let own = state.evaluate(
                                ListDefinition(
                                    view: view, scope: scope, access: .owner(owner), foldedSearch: search, sort: sort, direction: direction)
                            ).slots
                            let expected = whole.filter { Self.orders[Int($0)].customer == owner }
                            #expect(Array(own) == expected, "\(view) \(sort) \(direction) '\(search)' \(owner.text ?? "")")
                        }
                    }
                }
            }
        }
        let nobody = state.evaluate(
            ListDefinition(view: .all, scope: .init(currentMonth: nil), access: .owner(OwnerID("c-none")), sort: .date, direction: .desc))
        #expect(nobody.slots.count == 0)
    }

    /// Orders that change hands, are deleted and are created: every cached owner's list,
    /// patched in place, equals one computed afresh.
    @Test func ownersLists_stayRight_asOrdersChangeHands() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache())
        let accounts = ["c-big", "c-0001", "c-0002"]
        let queries = ["sort=total", "filter=pending&sort=date", "q=john&sort=customer&order=asc"]
        let lists = try accounts.flatMap { account in try queries.map { try criteria($0, Self.customer(account)) } }
        for list in lists { _ = try engine.page(for: list) }
        var random = SplitMix64(seed: 28)
        for step in 0..<60 {
            var order = Self.orders[random.below(Self.orders.count)]
            switch step % 3 {
            case 0: order.customer = OwnerID(accounts[random.below(accounts.count)])
            case 1: order.id = "o-new-\(step)"
            default: break
            }
            order.total = Money(cents: Int64(random.below(500_000)))
            engine.apply(step % 3 == 2 ? [.delete(id: order.id)] : [.upsert(order)])
            for list in lists {
                let (patched, _) = engine.sortedResult(for: list)
                let fresh = engine.state.evaluate(list.definition).slots
                #expect(Array(patched.slots) == Array(fresh), "step \(step)")
            }
        }
    }

    @Test func aCursorOrARowOfAnotherScope_isNotServed() throws {
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: Self.orders), metrics: ServiceMetrics(), formatters: FormatterCache())
        let (page, _) = try engine.page(for: try criteria("limit=2", Self.customer("c-big")))
        let body = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
        let cursor = try #require(body["nextCursor"] as? String)
        do {
            _ = try criteria("limit=2&cursor=\(cursor)", Self.customer("c-0001"))
            Issue.record("another customer's cursor was taken")
        } catch {
            #expect(error.parameter == "cursor")
        }
        #expect((try? criteria("limit=2&cursor=\(cursor)", Self.customer("c-big"))) != nil)

        let foreign = try #require(Self.orders.first { $0.customer == Self.big })
        let display = DisplayContext(localeTag: "en", timeZoneIdentifier: "UTC")
        #expect(throws: ListServiceError.self) { try engine.row(id: foreign.id, display: display, access: .owner(OwnerID("c-0001"))) }
        #expect((try? engine.row(id: foreign.id, display: display, access: .owner(Self.big))) != nil)
        let unowned = try #require(Self.orders.first { $0.customer == .none })
        #expect((try? engine.row(id: unowned.id, display: display, access: .owner(Self.big))) == nil, "unowned: staff only")
        #expect((try? engine.row(id: unowned.id, display: display, access: .everything)) != nil)
    }

    @Test func readScopes_followTheRules() {
        let staff = Caller.identified(Identity(subject: "s-1", role: .staff))
        let admin = Caller.identified(Identity(subject: "a-1", role: .admin))
        #expect(Orders.readScope(for: Self.customer("c-7")) == .owner(OwnerID("c-7")))
        #expect(Orders.readScope(for: staff) == .everything && Orders.readScope(for: .anonymous) == .everything)
        #expect(Tasks.readScope(for: staff) == .owner(OwnerID("s-1")), "staff see their own tasks")
        #expect(
            Tasks.readScope(for: admin) == .everything
                && Tasks.readScope(for: .identified(Identity(subject: "api-key-1", role: .service))) == .everything)
        #expect(Quakes.readScope(for: Self.customer("c-7")) == .everything && Users.readScope(for: Self.customer("c-7")) == .everything)
    }
}
