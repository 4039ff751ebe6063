import Foundation
import HTTPLite
import ListServiceHTTP
import Testing

@testable import ListService

@Suite struct LiveListTests {
    static let now = ISO8601.parse("2026-11-20T12:00:00Z") ?? Date()

    static func makeService() -> CollectionService {
        CollectionService(
            stores: [
                CollectionState<Orders>(items: DefaultOrders.make(count: 60, anchor: now)),
                CollectionState<Tasks>(items: DefaultTasks.make(count: 30, anchor: now)),
                CollectionState<Users>(items: DefaultUsers.make(count: 25)),
            ], clock: { now })
    }

    /// Opens a live stream of `collection` with `query` into a recorder.
    static func watch(
        _ collection: String, _ query: [(String, String)], service: CollectionService, purpose: ListPurpose = .list,
        session: Session? = nil, lastEventID: String? = nil
    ) throws -> LiveRecorder {
        guard let endpoint = service.endpoints.first(where: { $0.name == collection }) else { throw LiveTestError.noEndpoint }
        let recorder = LiveRecorder()
        do throws(LiveOpenError) {
            try endpoint.live(ListRequest(parameters: query.map { ($0.0, $0.1) }), session, purpose, lastEventID).start(recorder)
        } catch {
            throw LiveTestError.refused("\(error)")
        }
        return recorder
    }

    enum LiveTestError: Error {
        case noEndpoint
        case refused(String)
    }

    /// Waits until the live queue has handled everything committed so far.
    static func settle(_ service: CollectionService) { service.live.queue.sync {} }

    @Test func randomWritesKeepEveryWatchedWindowEqualToAFreshPage() throws {
        let service = Self.makeService()
        let router = ServiceRoutes.makeRouter(service: service)
        var generator = SeededGenerator(seed: 7)
        var watched: [(collection: String, query: [(String, String)], recorder: LiveRecorder)] = []
        for _ in 0..<24 {
            var query: [(String, String)] = [("limit", String(Int.random(in: 2...7, using: &generator)))]
            let collection = ["orders", "orders", "tasks", "users"].randomElement(using: &generator) ?? "orders"
            switch collection {
            case "orders":
                query.append(("filter", ["all", "pending", "completed", "cancelled", "highValue"].randomElement(using: &generator) ?? "all"))
                query.append(("sort", ["date", "total", "customer"].randomElement(using: &generator) ?? "date"))
                if Bool.random(using: &generator) { query.append(("q", ["a", "jo", "e"].randomElement(using: &generator) ?? "a")) }
            case "tasks":
                query.append(("view", ["active", "archived", "all"].randomElement(using: &generator) ?? "all"))
            default:
                query.append(("sort", ["name", "taps"].randomElement(using: &generator) ?? "name"))
            }
            query.append(("order", ["asc", "desc"].randomElement(using: &generator) ?? "asc"))
            if Int.random(in: 0..<4, using: &generator) == 0 { query.append(("offset", String(Int.random(in: 1...6, using: &generator)))) }
            if Bool.random(using: &generator) { query.append(("locale", "de-DE")) }
            watched.append((collection, query, try Self.watch(collection, query, service: service)))
        }
        for step in 0..<150 {
            let orderID = "o-" + String(zeroPadded: Int.random(in: 1...64, using: &generator), width: 6)
            let userID = "u-" + String(zeroPadded: Int.random(in: 1...27, using: &generator), width: 6)
            let taskID = "t-" + String(zeroPadded: Int.random(in: 1...32, using: &generator), width: 6)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: _ = router.send(.post, "/orders/\(orderID)/complete")
            case 1: _ = router.send(.post, "/orders/\(orderID)/cancel")
            case 2: _ = router.send(.post, "/orders", json: WriteAPITests.validOrder)
            case 3: _ = router.send(.patch, "/orders/\(orderID)", json: #"{"customerName": "Jo Zebra"}"#)
            case 4: _ = router.send(.delete, "/orders/\(orderID)")
            case 5, 6: _ = router.send(.post, "/users/\(userID)/tap")
            case 7: _ = router.send(.post, "/users", json: #"{"name": "Ada Newcomer"}"#)
            case 8: _ = router.send(.patch, "/tasks/\(taskID)", json: #"{"isArchived": true}"#)
            default: _ = router.send(.delete, "/users/\(userID)")
            }
            Self.settle(service)
            for (collection, query, recorder) in watched {
                var replica = LiveWindowReplica()
                for event in recorder.events { replica.apply(event) }
                let fresh = router.send(.get, "/\(collection)", query: query).bodyJSON
                let expected = fresh["items"] as? [[String: Any]] ?? []
                #expect(replica.problems.isEmpty, "step \(step) \(collection) \(query): \(replica.problems)")
                #expect(
                    (replica.items as NSArray).isEqual(to: expected), "step \(step) \(collection) \(query): window differs from a fresh page")
                #expect(replica.total == fresh["total"] as? Int, "step \(step) \(collection) \(query): total")
            }
        }
        let deltas = watched.reduce(0) { $0 + $1.recorder.events.filter { $0.name == "delta" }.count }
        #expect(deltas > 50, "the writes reached the windows as deltas, not only resets")
    }
}
