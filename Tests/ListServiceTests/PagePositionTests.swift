import Foundation
import Testing

@testable import ListService

/// Where a page sits in its list (`index`, `itemsBefore`, `itemsAfter`) and `around=<id>`:
/// a page centred on one item.
@Suite struct PagePositionTests {
    static let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()
    static let orders = DefaultOrders.make(count: 500, anchor: anchor)

    let engine = CollectionEngine(
        state: CollectionState<Orders>(items: PagePositionTests.orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
        clock: { PagePositionTests.anchor })

    func criteria(_ parameters: [(String, String)]) throws -> ListCriteria<Orders> {
        try ListCriteria<Orders>(ListRequest(parameters: parameters.map { (name: $0.0, value: $0.1) }), now: Self.anchor)
    }

    func page(_ parameters: [(String, String)]) throws -> [String: Any] {
        let (page, _) = try engine.page(for: criteria(parameters))
        return try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
    }

    static func ids(_ page: [String: Any]) -> [String] { (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }

    /// Every id of the pending list by date, in order, by brute force.
    static let pending: [String] = orders.filter { $0.status == .pending }
        .sorted { ($0.date, $1.id) > ($1.date, $0.id) }.map(\.id)

    @Test func cursorPages_sayWhereTheySit() throws {
        var cursor = ""
        var seen = 0
        repeat {
            let page = try page([("filter", "pending"), ("sort", "date"), ("limit", "37"), ("cursor", cursor)])
            let rows = Self.ids(page).count
            let total = try #require(page["total"] as? Int)
            #expect(page["index"] as? Int == seen && page["itemsBefore"] as? Int == seen)
            #expect(page["itemsAfter"] as? Int == total - seen - rows)
            #expect(Self.ids(page) == Array(Self.pending[seen..<(seen + rows)]))
            seen += rows
            cursor = page["nextCursor"] as? String ?? ""
        } while !cursor.isEmpty
        #expect(seen == Self.pending.count)
        let byOffset = try page([("filter", "pending"), ("limit", "10"), ("offset", "25")])
        #expect(byOffset["index"] as? Int == 25 && byOffset["itemsAfter"] as? Int == Self.pending.count - 35)
    }

    @Test(arguments: [0, 3, 10, 80, 140]) func around_putsTheItemAtTheMiddle_whereTheListAllows(offsetFromStart: Int) throws {
        let limit = 21
        for rank in [offsetFromStart, Self.pending.count - 1 - offsetFromStart] where rank >= 0 && rank < Self.pending.count {
            let id = Self.pending[rank]
            let page = try page([("filter", "pending"), ("limit", "\(limit)"), ("around", id)])
            let first = max(0, min(rank - limit / 2, Self.pending.count - limit))
            #expect(page["index"] as? Int == first, "rank \(rank)")
            #expect(Self.ids(page) == Array(Self.pending[first..<(first + limit)]))
            #expect(Self.ids(page).firstIndex(of: id) == rank - first)
            if rank >= limit / 2 && rank + limit - limit / 2 <= Self.pending.count { #expect(rank - first == limit / 2) }
        }
    }

    @Test func around_anItemNotInTheList_isNotInList_andWithACursorIsRefused() throws {
        let completed = try #require(Self.orders.first { $0.status == .completed })
        #expect {
            try page([("filter", "pending"), ("around", completed.id)])
        } throws: { ($0 as? ListServiceError)?.code == "not-in-list" && ($0 as? ListServiceError)?.kind == .notFound }
        #expect {
            try page([("around", "o-999999")])
        } throws: { ($0 as? ListServiceError)?.code == "not-in-list" }
        #expect {
            try criteria([("around", Self.pending[0]), ("offset", "3")])
        } throws: { ($0 as? ListServiceError)?.parameter == "around" && ($0 as? ListServiceError)?.kind == .invalidParameter }
    }

    @Test func around_anotherCustomersOrder_isNotInTheirList() throws {
        var orders = Self.orders
        orders[0].customer = OwnerID("c-a")
        orders[1].customer = OwnerID("c-b")
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: orders), metrics: ServiceMetrics(), formatters: FormatterCache(), clock: { Self.anchor })
        func request(_ id: String) throws -> ListCriteria<Orders> {
            try ListCriteria<Orders>(
                ListRequest(parameters: [(name: "around", value: id)], caller: .identified(Identity(subject: "c-a", role: .customer))),
                now: Self.anchor)
        }
        #expect(try engine.page(for: request(orders[0].id)).0.body.count > 0)
        #expect {
            try engine.page(for: request(orders[1].id))
        } throws: { ($0 as? ListServiceError)?.code == "not-in-list" }
    }
}
