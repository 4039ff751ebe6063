#if FUZZING
    import Foundation
    @testable import ListService

    /// The query/criteria parser: arbitrary bytes as a query string of each collection. Invariants:
    /// criteria it accepts give a page of at most `limit` rows whose `criteria` echo parses again
    /// to the same list; a cursor it decodes encodes back to itself.
    enum CriteriaFuzzing {
        private static let now = Date(timeIntervalSince1970: 1_795_000_000)
        private static let service = CollectionService(
            stores: [
                CollectionState<Orders>(items: DefaultOrders.make(count: 300, anchor: now)),
                CollectionState<Tasks>(items: DefaultTasks.make(count: 100, anchor: now)),
                CollectionState<Quakes>(items: DefaultQuakes.make(count: 300, anchor: now)),
            ], log: .discarding, clock: { now })

        static func run(_ input: [UInt8]) {
            let text = String(decoding: input, as: UTF8.self)
            if let cursor = PageCursor(encoded: text) {
                fuzzCheck(PageCursor(encoded: cursor.encoded) == cursor, "a cursor did not round-trip")
            }
            let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> (name: String, value: String) in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
            let request = ListRequest(parameters: pairs, acceptLanguage: nil)
            check(Orders.self, request)
            check(Tasks.self, request)
            check(Quakes.self, request)
        }

        private static func check<C: ListCollection>(_ collection: C.Type, _ request: ListRequest) {
            guard let criteria = try? ListCriteria<C>(request, now: now) else { return }
            let engine = service.engine(C.self)
            guard let (page, _) = try? engine.page(for: criteria) else { return }
            guard let body = try? JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any],
                let items = body["items"] as? [Any], let echo = body["criteria"] as? [String: Any]
            else { return fuzzCheck(false, "a page is not a JSON object with items and criteria") }
            fuzzCheck(items.count <= criteria.limit, "more rows than the limit")
            let echoed = echo.compactMap { name, value -> (name: String, value: String)? in
                switch value {
                case let text as String: (name, text)
                case let number as NSNumber: (name, number.stringValue)
                default: nil
                }
            }
            guard let again = try? ListCriteria<C>(ListRequest(parameters: echoed), now: now) else {
                return fuzzCheck(false, "the criteria echo was refused: \(echoed)")
            }
            fuzzCheck(again.fingerprint == criteria.fingerprint, "the echo names another list")
        }
    }
#endif
