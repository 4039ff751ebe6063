// The in-memory cost of one change (journal excluded): `complete` on an order while many
// sessions hold cached lists, at two collection sizes, so the cost can be seen not to grow
// with the collection.
//
//   swift run -c release write-cost                 # 10,000, 100,000 and 1,000,000 orders
//   swift run -c release write-cost 100000 1000000  # the sizes given
import Foundation
import ListService

func measure(orders count: Int, sessions: Int) {
    let anchor = CollectionService.defaultAnchor()
    let service = CollectionService(stores: [CollectionState<Orders>(items: DefaultOrders.make(count: count, anchor: anchor))])
    let engine = service.engine(Orders.self)
    let queries = [
        "filter=pending", "filter=completed", "filter=cancelled", "filter=highValue", "filter=currentMonth", "q=john",
        "filter=pending&q=john", "sort=total&order=desc", "sort=customer", "filter=pending&sort=total",
    ]
    for index in 0..<sessions {
        let session = service.sessions.session(id: "s\(index)", adoptsUnknownID: true, now: service.now).session
        let query = queries[index % queries.count]
        let pairs = query.split(separator: "&").map { pair -> (name: String, value: String) in
            let parts = pair.split(separator: "=")
            return (String(parts[0]), String(parts[1]))
        }
        _ = try? session.viewModel(for: Orders.self).page(for: ListRequest(parameters: pairs), session: session, engine: engine)
    }
    let pending = engine.state.allItems.filter { $0.status == .pending }.prefix(2000)
    var samples: [Double] = []
    for order in pending {
        var completed = order
        completed.status = .completed
        let start = DispatchTime.now().uptimeNanoseconds
        engine.apply([.upsert(completed)])
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }
    samples.sort()
    let median = samples[samples.count / 2], p99 = samples[samples.count * 99 / 100]
    print(
        "orders=\(count) sessions=\(sessions) changes=\(samples.count) median_us=\(String(format: "%.1f", median)) "
            + "p99_us=\(String(format: "%.1f", p99)) lists_patched=\(service.metrics.value(.listsPatched)) "
            + "recomputations=\(service.metrics.value(.recomputations))")
}

let sizes = CommandLine.arguments.dropFirst().compactMap { Int($0) }
for count in sizes.isEmpty ? [10_000, 100_000, 1_000_000] : sizes { measure(orders: count, sessions: 1000) }
