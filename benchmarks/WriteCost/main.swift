// The in-memory cost of one change (journal excluded): `complete` on an order while many
// sessions hold cached lists, at two collection sizes, so the cost can be seen not to grow
// with the collection.
//
//   swift run -c release write-cost                 # 10,000, 100,000 and 1,000,000 orders
//   swift run -c release write-cost 100000 1000000  # the sizes given
//   swift run -c release write-cost --collations 100000 1000000
//
// `--collations`: a sort by customer in a second collation (Swedish) at each size: its first
// list (its presorted order built) beside the same list again and the root one, the memory
// the order keeps (RSS before and after), then a rename's cost (it moves the order in every
// customer order) with one collation in use and with three (root, Swedish, Japanese).
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

/// Resident memory now, in MiB (`VmRSS`).
func residentMiB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}

func milliseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func measureCollations(orders count: Int) {
    let anchor = CollectionService.defaultAnchor()
    let service = CollectionService(stores: [CollectionState<Orders>(items: DefaultOrders.make(count: count, anchor: anchor))])
    let engine = service.engine(Orders.self)
    var sessionNumber = 0
    /// A page of `sort=customer` in `locale`, held by a session of its own (so writes patch it), and its time.
    func list(_ locale: String) -> Double {
        sessionNumber += 1
        let session = service.sessions.session(id: "c\(sessionNumber)", adoptsUnknownID: true, now: service.now).session
        let request = ListRequest(parameters: [("sort", "customer"), ("locale", locale)])
        return milliseconds { _ = try? session.viewModel(for: Orders.self).page(for: request, session: session, engine: engine) }
    }
    func renames() -> (median: Double, p99: Double) {
        let names = ["Åsa Nilsson", "Zander Öberg", "Ärla Berg", "Anna Zorn", "さくら", "Émile Ólafsson"]
        var samples: [Double] = []
        for (index, order) in engine.state.allItems.prefix(2000).enumerated() {
            var renamed = order
            renamed.customerName = names[index % names.count]
            samples.append(milliseconds { engine.apply([.upsert(renamed)]) } * 1000)
        }
        samples.sort()
        return (samples[samples.count / 2], samples[samples.count * 99 / 100])
    }
    let rootFirst = list("en-US"), rootAgain = list("en-US")
    let beforeSwedish = residentMiB()
    let swedishFirst = list("sv-SE")
    let afterSwedish = residentMiB()
    let swedishAgain = list("sv-SE")
    let one = renames()
    _ = list("ja-JP")
    let three = renames()
    let format = { (value: Double) in String(format: "%.1f", value) }
    print(
        "orders=\(count) root_list_ms=\(format(rootFirst))/\(format(rootAgain)) sv_first_list_ms=\(format(swedishFirst)) "
            + "sv_again_ms=\(format(swedishAgain)) sv_order_rss_mib=\(format(afterSwedish - beforeSwedish)) "
            + "rename_one_collation_us=\(format(one.median))/p99 \(format(one.p99)) "
            + "rename_three_collations_us=\(format(three.median))/p99 \(format(three.p99))")
}

let arguments = CommandLine.arguments.dropFirst()
let sizes = arguments.compactMap { Int($0) }
if arguments.contains("--collations") {
    for count in sizes.isEmpty ? [100_000, 1_000_000] : sizes { measureCollations(orders: count) }
} else {
    for count in sizes.isEmpty ? [10_000, 100_000, 1_000_000] : sizes { measure(orders: count, sessions: 1000) }
}
