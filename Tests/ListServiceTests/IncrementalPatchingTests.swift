import Basics
import Foundation
import Testing

@testable import ListService

/// A change patches cached lists in place; whatever the changes, each patched list must equal
/// a list computed from scratch over the same items.
@Suite struct IncrementalPatchingTests {
    static let criteria: [String] = [
        "", "filter=pending", "filter=completed&sort=total&order=asc", "filter=cancelled&sort=customer",
        "filter=highValue", "filter=currentMonth", "q=john", "q=jose&sort=customer&order=desc", "filter=pending&q=or&sort=total",
        "sort=date&order=asc", "q=zzzz",
    ]

    private func criteria(_ query: String) throws -> ListCriteria<Orders> {
        let pairs =
            (query.isEmpty ? [] : query.split(separator: "&")).map { pair -> (name: String, value: String) in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), String(parts[1]))
            } + [("limit", "500")]  // pages compare the first 500 rows and the totals
        return try ListCriteria<Orders>(ListRequest(parameters: pairs), now: ISO8601.parse("2026-11-20T12:00:00Z")!)
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func randomChanges_patchedListsEqualFullRecompute(seed: UInt64) throws {
        let anchor = ISO8601.parse("2026-11-20T00:00:00Z")!
        // 3,000 orders: several chunks per presorted order, so chunk splits are exercised too.
        let service = makeService(orders: DefaultOrders.make(count: 3000, anchor: anchor))
        let engine = service.engine(Orders.self)
        for query in Self.criteria { _ = try engine.page(for: criteria(query)) }
        let computed = service.metrics.value(.recomputations)
        var random = SplitMix64(seed: seed)
        var nextID = 1000
        for _ in 0..<60 {
            let existing = engine.state.allItems
            var changes: [ItemChange<Order>] = []
            for _ in 0..<(1 + random.below(3)) {
                switch random.below(4) {
                case 0:  // insert
                    nextID += 1
                    changes.append(
                        .upsert(
                            .make(
                                id: "o-\(nextID)", customerName: random.pick(["John Smith", "José García", "Zoë Kim", "Ann Lee"]),
                                total: Money(cents: Int64(random.below(300_000))),
                                date: anchor.addingTimeInterval(-Double(random.below(90 * 86_400))),
                                status: random.pick(OrderStatus.allCases))))
                case 1:  // delete
                    changes.append(.delete(id: random.pick(existing).id))
                default:  // edit: status, total, name or date
                    var order = random.pick(existing)
                    switch random.below(4) {
                    case 0: order.status = random.pick(OrderStatus.allCases)
                    case 1: order.total = Money(cents: Int64(random.below(300_000)))
                    case 2: order.customerName = random.pick(["Johnny Appleseed", "Jürgen Müller", "Amélie Dubois"])
                    default: order.date = anchor.addingTimeInterval(-Double(random.below(90 * 86_400)))
                    }
                    changes.append(.upsert(order))
                }
            }
            engine.apply(changes)
        }
        #expect(service.metrics.value(.listsPatched) > 0)
        let fresh = makeService(orders: engine.state.allItems)
        for query in Self.criteria {
            let (patched, _) = try engine.page(for: criteria(query))
            let (recomputed, _) = try fresh.engine(Orders.self).page(for: criteria(query))
            let (patchedIDs, recomputedIDs) = (ids(json(patched.body)), ids(json(recomputed.body)))
            #expect(
                patchedIDs == recomputedIDs,
                "\(query): first difference at \(patchedIDs.indices.first { $0 >= recomputedIDs.count || patchedIDs[$0] != recomputedIDs[$0] } ?? -1)"
            )
            #expect(patched.body == recomputed.body, "\(query): same ids, different rows")
        }
        #expect(service.metrics.value(.recomputations) == computed, "patched, never recomputed")
    }

    @Test func untouchedLists_keepTheirPageAndETag() throws {
        let service = makeService(orders: [
            .make(id: "o-1", customerName: "John Smith", status: .pending),
            .make(id: "o-2", customerName: "Ann Lee", status: .completed),
        ])
        let engine = service.engine(Orders.self)
        let (completed, _) = try engine.page(for: criteria("filter=completed"))
        let (pending, _) = try engine.page(for: criteria("filter=pending"))
        var order = try #require(engine.state.item(id: "o-1"))
        order.customerName = "John Smithers"
        engine.apply([.upsert(order)])
        let (completedAfter, outcome) = try engine.page(for: criteria("filter=completed"))
        #expect(completedAfter === completed, "same page object: untouched")
        #expect(outcome == .sharedHit)
        #expect(completed.isFresh(now: service.now))
        #expect(!pending.isFresh(now: service.now), "the list that holds the order is revised")
        let (pendingAfter, _) = try engine.page(for: criteria("filter=pending"))
        #expect(pendingAfter.etag != pending.etag)
        #expect(String(decoding: pendingAfter.body, as: UTF8.self).contains("John Smithers"))
    }

    @Test func sessionViewModel_keepsItsPageWhenItsListIsUntouched() throws {
        let service = makeService(orders: [.make(id: "o-1", status: .pending), .make(id: "o-2", status: .completed)])
        let session = service.sessions.session(id: "s", adoptsUnknownID: true, now: service.now).session
        _ = try list(Orders.self, "filter=completed", session: session, service: service)
        var order = try #require(service.engine(Orders.self).state.item(id: "o-1"))
        order.customerName = "Someone Else"  // in no completed list, and no count changes
        service.engine(Orders.self).apply([.upsert(order)])
        #expect(try list(Orders.self, "filter=completed", session: session, service: service).1 == .sessionHit)
        order.status = .cancelled  // still in no completed list, but the chips' counts change
        service.engine(Orders.self).apply([.upsert(order)])
        #expect(try list(Orders.self, "filter=completed", session: session, service: service).1 != .sessionHit)
        _ = try list(Orders.self, "filter=cancelled", session: session, service: service)
        order.status = .completed
        service.engine(Orders.self).apply([.upsert(order)])
        let (page, outcome) = try list(Orders.self, "filter=cancelled", session: session, service: service)
        #expect(outcome != .sessionHit)
        #expect(ids(page).isEmpty)
    }
}
