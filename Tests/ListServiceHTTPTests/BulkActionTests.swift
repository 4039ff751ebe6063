import Basics
import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// Actions on many rows (`POST /{name}/actions/{action}`): each item decided as one write
/// would be, every accepted change in one durable batch (one journal record: a crash keeps all
/// of them or none), one live event per watched list, and every item's outcome in the answer.
@Suite struct BulkActionTests {
    static let now = ISO8601.parse("2026-11-20T12:00:00Z") ?? Date()

    static func body(_ items: [(id: String, ifMatch: String?)]) -> String {
        let list = items.map { item in
            "{\"id\":\"\(item.id)\"" + (item.ifMatch.map { ",\"ifMatch\":\"\($0)\"" } ?? "") + "}"
        }
        return "{\"items\":[" + list.joined(separator: ",") + "]}"
    }

    /// 200 named: 185 pending orders at their versions, 10 pending ones at a stale version, 5
    /// cancelled ones (which cannot be completed).
    static func batchOf200(in service: CollectionService) throws -> (body: String, accepted: [String], stale: [String], forbidden: [String])
    {
        let orders = service.engine(Orders.self).state.allItems
        let pending = orders.filter { $0.status == .pending }.prefix(195).map(\.id)
        let cancelled = orders.filter { $0.status == .cancelled }.prefix(5).map(\.id)
        try #require(pending.count == 195 && cancelled.count == 5)
        let engine = service.engine(Orders.self)
        func version(_ id: String) -> String? { engine.state.item(id: id).map { engine.version(of: $0).trimmingCharacters(in: ["\""]) } }
        let accepted = Array(pending.prefix(185)), stale = Array(pending.suffix(10))
        var items: [(id: String, ifMatch: String?)] = accepted.map { ($0, version($0)) }
        items += stale.map { ($0, "0123456789abcdef") } + cancelled.map { ($0, nil) }
        // Interleaved, so refusals sit between accepted items.
        items = items.enumerated().sorted { ($0.offset % 7, $0.offset) < ($1.offset % 7, $1.offset) }.map(\.element)
        return (body(items), accepted, stale, cancelled)
    }

    @Test func aBatchOf200_answers185Accepted_and15Refused_eachWithItsReason() throws {
        let service = makeService(orders: DefaultOrders.make(count: 2_000, anchor: Self.now), now: Self.now)
        let handler = ServiceRoutes.makeHandler(service: service)
        let batch = try Self.batchOf200(in: service)
        let response = handler.send(.post, "/orders/actions/complete", json: batch.body)
        #expect(response.status == .ok)
        let answer = json(try #require(response.bodyBytes))
        #expect(answer["accepted"] as? Int == 185 && answer["refused"] as? Int == 15)
        let items = try #require(answer["items"] as? [[String: Any]])
        #expect(items.count == 200)
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0["id"] as? String ?? "", $0) })
        for id in batch.accepted {
            #expect(byID[id]?["status"] as? Int == 200)
            #expect((byID[id]?["row"] as? [String: Any])?["status"] as? String == "completed")
        }
        for id in batch.stale {
            #expect(byID[id]?["status"] as? Int == 412)
            #expect((byID[id]?["problem"] as? [String: Any])?["code"] as? String == "precondition-failed")
        }
        for id in batch.forbidden {
            #expect(byID[id]?["status"] as? Int == 409)
            #expect((byID[id]?["problem"] as? [String: Any])?["detail"] as? String != nil)
        }
        let state = service.engine(Orders.self).state
        #expect(batch.accepted.allSatisfy { state.item(id: $0)?.status == .completed })
        #expect(batch.stale.allSatisfy { state.item(id: $0)?.status == .pending })
        #expect(batch.forbidden.allSatisfy { state.item(id: $0)?.status == .cancelled })

        // None accepted: a 422 problem that still lists every item.
        let again = handler.send(.post, "/orders/actions/complete", json: Self.body(batch.forbidden.map { ($0, nil) }))
        #expect(again.status == .unprocessableContent && again.headers["Content-Type"] == "application/problem+json")
        let problem = json(try #require(again.bodyBytes))
        #expect(problem["code"] as? String == "nothing-accepted" && (problem["items"] as? [Any])?.count == 5)
    }

    @Test func aBatchIsOneJournalRecord_soACrashKeepsAllOfItOrNone() throws {
        try withTemporaryDirectory { directory in
            let storage = StorageConfiguration(dataDirectory: nil, stateDirectory: directory, anchor: Self.now)
            var service = try CollectionService.open(storage, log: .discarding, clock: { Self.now })
            service.writes.compactNow()  // the embedded data in a snapshot: the journal starts empty
            let batch = try Self.batchOf200(in: service)
            let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/orders.journal")).count
            #expect(before == 0)
            #expect(ServiceRoutes.makeHandler(service: service).send(.post, "/orders/actions/complete", json: batch.body).status == .ok)
            let journal = try Data(contentsOf: URL(fileURLWithPath: directory + "/orders.journal"))
            let records = try JournalReader.read(directory + "/orders.journal").payloads
            #expect(records.count == 1, "one record for the batch")
            #expect(String(decoding: records.last ?? [], as: UTF8.self).hasPrefix(#"{"op":"batch","changes":[{"op":"upsert""#))

            // Every one of them after a restart.
            service = try CollectionService.open(storage, log: .discarding, clock: { Self.now })
            #expect(batch.accepted.allSatisfy { service.engine(Orders.self).state.item(id: $0)?.status == .completed })

            // Torn anywhere (a kill -9 mid-write): none of them.
            for cut in [1, (journal.count - before) / 2, journal.count - before - 13] {
                try journal.prefix(journal.count - cut).write(to: URL(fileURLWithPath: directory + "/orders.journal"))
                service = try CollectionService.open(storage, log: .discarding, clock: { Self.now })
                #expect(batch.accepted.allSatisfy { service.engine(Orders.self).state.item(id: $0)?.status == .pending }, "cut \(cut)")
            }
        }
    }

    @Test func aWatchedListGetsOneEventForTheWholeBatch() throws {
        let service = CollectionService(
            stores: [CollectionState<Orders>(items: DefaultOrders.make(count: 600, anchor: Self.now))],
            live: LiveListTests.eventPerBatch, clock: { Self.now })
        let handler = ServiceRoutes.makeHandler(service: service)
        let recorder = try LiveListTests.watch("orders", [("filter", "pending"), ("limit", "50")], service: service)
        LiveListTests.settle(service)
        let window = try #require(recorder.events.last?.data["items"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(window.count == 50)
        var before = recorder.events.count
        #expect(handler.send(.post, "/orders/actions/complete", json: Self.body(window.prefix(10).map { ($0, nil) })).status == .ok)
        LiveListTests.settle(service)
        var events = recorder.events.dropFirst(before)
        #expect(events.count == 1 && events.first?.name == "delta")
        let ops = events.first?.data["ops"] as? [[String: Any]] ?? []
        #expect(ops.filter { $0["op"] as? String == "remove" }.count == 10)
        // More than half the window at once: still one event (a fresh snapshot of the window).
        before = recorder.events.count
        #expect(handler.send(.post, "/orders/actions/cancel", json: Self.body(window.suffix(30).map { ($0, nil) })).status == .ok)
        LiveListTests.settle(service)
        events = recorder.events.dropFirst(before)
        #expect(events.count == 1)
    }

    @Test func everyCollectionsBulkActions_andBadBodiesNameTheirFields() throws {
        let service = makeWriteTestService()
        let handler = ServiceRoutes.makeHandler(service: service)
        #expect(handler.send(.post, "/tasks/actions/archive", json: Self.body([("t-000001", nil)])).status == .ok)
        #expect(service.engine(Tasks.self).state.item(id: "t-000001")?.isArchived == true)
        let deleted = handler.send(.post, "/tasks/actions/delete", json: Self.body([("t-000001", nil), ("t-999999", nil)]))
        let answer = json(try #require(deleted.bodyBytes))
        #expect((answer["items"] as? [[String: Any]])?.map { $0["status"] as? Int } == [204, 404])
        #expect(service.engine(Tasks.self).state.item(id: "t-000001") == nil)
        #expect(handler.send(.post, "/orders/actions/archive", json: Self.body([("o-000001", nil)])).status == .notFound)

        for (body, field) in [
            (#"{"items":[]}"#, "items"), (#"{"items":[{"id":"o-000001"}],"all":true}"#, "all"),
            (#"{"items":[{"id":"o-000001"},{"id":"o-000001"}]}"#, "items[1].id"), (#"{"items":[{"id":7}]}"#, "items[0].id"),
            (#"{"items":[{"id":"o-000001","ifMatch":3}]}"#, "items[0].ifMatch"),
            ("{\"items\":[" + Array(repeating: #"{"id":"o"}"#, count: 501).joined(separator: ",") + "]}", "items"),
        ] {
            let refused = handler.send(.post, "/orders/actions/complete", json: body)
            #expect(refused.status == .unprocessableContent, "\(body.prefix(60))")
            let fields = (json(refused.bodyBytes ?? [])["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields?.contains(field) == true, "\(body.prefix(60)): \(fields ?? [])")
        }
        #expect(service.engine(Orders.self).state.item(id: "o-000001")?.status == DefaultOrders.make(count: 50, anchor: Self.now)[0].status)
    }
}
