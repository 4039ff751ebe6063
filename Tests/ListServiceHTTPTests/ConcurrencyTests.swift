import Dispatch
import Foundation
import HTTPLite
import Basics
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// Many writers and readers at once: every page a reader gets is one consistent moment.
@Suite struct ConcurrencyTests {
    @Test func concurrentReadsAndWrites_neverShowTornPages() throws {
        let service = makeService(orders: DefaultOrders.make(count: 200, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!))
        let router = ServiceRoutes.makeHandler(service: service)
        let problems = Locked<[String]>([])
        let filters = ["all", "pending", "completed", "cancelled", "highValue"]
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var random = SplitMix64(seed: UInt64(worker + 1))
            for step in 0..<150 {
                if worker < 4 {
                    let id = String(format: "o-%06d", 1 + random.below(200))
                    switch random.below(5) {
                    case 0: _ = router.send(.post, "/orders/\(id)/complete")
                    case 1: _ = router.send(.post, "/orders/\(id)/cancel")
                    case 2: _ = router.send(.patch, "/orders/\(id)", json: #"{"customerName":"Writer \#(worker)-\#(step)"}"#)
                    case 3: _ = router.send(.delete, "/orders/\(id)")
                    default: _ = router.send(.post, "/orders", json: Order.validCreateBody)
                    }
                } else {
                    let filter = random.pick(filters)
                    let page = router.send(
                        .get, "/orders", query: [("filter", filter), ("limit", "500")], headers: ["X-Session-ID": "r\(worker)"]
                    ).bodyJSON
                    let rows = page["items"] as? [[String: Any]] ?? []
                    var issues: [String] = []
                    if page["total"] as? Int != rows.count {
                        issues.append("\(filter): total \(page["total"] ?? "nil") but \(rows.count) rows")
                    }
                    if ["pending", "completed", "cancelled"].contains(filter), rows.contains(where: { $0["status"] as? String != filter }) {
                        issues.append("\(filter): a row of another status")
                    }
                    if filter == "highValue", rows.contains(where: { $0["isHighValue"] as? Bool != true }) {
                        issues.append("highValue: a low row")
                    }
                    if !issues.isEmpty { problems.withLock { $0 += issues } }
                }
            }
        }
        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0.prefix(5) })")
        // And the lists, patched throughout, equal a recompute from scratch at the end.
        let fresh = makeService(orders: service.engine(Orders.self).state.allItems)
        for filter in filters {
            let query = [("filter", filter), ("limit", "500")]
            #expect(
                ids(router.send(.get, "/orders", query: query).bodyJSON)
                    == ids(ServiceRoutes.makeHandler(service: fresh).send(.get, "/orders", query: query).bodyJSON))
        }
    }
}
