import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// The plain run stays lively: embedded items clients never touched are made again relative
/// to each start's time; everything clients changed is kept.
@Suite struct EmbeddedRefreshTests {
    private let day1 = ISO8601.parse("2026-11-20T10:00:00Z") ?? Date()
    private var day4: Date { day1.addingTimeInterval(3 * 86_400) }

    private func open(_ directory: String, anchor: Date) throws -> CollectionService {
        try CollectionService.open(
            StorageConfiguration(dataDirectory: nil, stateDirectory: directory, anchor: anchor), log: .discarding,
            clock: { anchor.addingTimeInterval(1_800) })
    }

    @Test func untouchedItemsMoveWithTime_clientChangesStay() throws {
        try withTemporaryDirectory { directory in
            var service = try open(directory, anchor: day1)
            var router = ServiceRoutes.makeHandler(service: service)
            let pending = try #require(service.engine(Orders.self).state.allItems.first { $0.status == .pending })
            #expect(router.send(.post, "/orders/\(pending.id)/cancel").status == .ok)
            #expect(router.send(.post, "/orders", json: Order.validCreateBody).status == .created)
            #expect(router.send(.delete, "/tasks/t-000001").status == .noContent)
            #expect(router.send(.post, "/users/u-000001/tap").status == .ok)
            let quakesToday = try list(Quakes.self, "", service: service).0["total"] as? Int ?? 0
            #expect(quakesToday > 0)

            service = try open(directory, anchor: day4)
            router = ServiceRoutes.makeHandler(service: service)
            let orders = Dictionary(uniqueKeysWithValues: service.engine(Orders.self).state.allItems.map { ($0.id, $0) })
            let madeNow = Dictionary(uniqueKeysWithValues: DefaultOrders.make(anchor: day4).map { ($0.id, $0) })
            let untouched = try #require(orders.keys.sorted().first { $0 != pending.id && madeNow[$0] != nil })
            #expect(orders[untouched] == madeNow[untouched], "an untouched order is made again at the new anchor")
            #expect(orders[untouched]?.date != DefaultOrders.make(anchor: day1).first { $0.id == untouched }?.date, "it moved")
            #expect(orders[pending.id]?.status == .cancelled, "a client's change is kept")
            #expect(orders[pending.id]?.date == pending.date, "as it was")
            #expect(orders["o-010001"]?.customerName == "Zoë Kim", "a client's order is kept")
            #expect(service.engine(Tasks.self).state.item(id: "t-000001") == nil, "a deletion is kept")
            #expect(service.engine(Users.self).state.item(id: "u-000001")?.taps == (DefaultUsers.make().first?.taps ?? 0) + 1)
            #expect((try list(Quakes.self, "", service: service).0["total"] as? Int ?? 0) > 0, "today still has earthquakes")
            #expect(router.send(.post, "/orders", json: Order.validCreateBody).headers["Location"] == "/orders/o-010002", "ids go on")

            // A third start at the same hour changes nothing.
            let again = try open(directory, anchor: day4)
            #expect(again.engine(Orders.self).state.allItems.count == orders.count + 1)
            #expect(again.engine(Orders.self).state.item(id: untouched) == madeNow[untouched])
        }
    }

    @Test func aStopBetweenTheAnchorsAndTheSnapshot_stillRecognisesEitherAnchor() {
        let madeOnDay1 = DefaultTasks.make(count: 20, anchor: day1)
        let anchors = EmbeddedRefresh.Anchors(current: day4, previous: day1)
        let refreshed = EmbeddedRefresh.refresh(Tasks.self, madeOnDay1, madeAt: anchors, to: day4.addingTimeInterval(86_400))
        #expect(refreshed?.count == 20)
        #expect(refreshed?.first?.dueDate == DefaultTasks.make(count: 20, anchor: day4.addingTimeInterval(86_400)).first?.dueDate)
        #expect(EmbeddedRefresh.refresh(Tasks.self, madeOnDay1, madeAt: .init(current: day1), to: day1) == nil, "nothing to do")
    }

    @Test func aStateSeededFromDataFiles_isNeverRefreshed() throws {
        try withTemporaryDirectory { directory in
            try writeDataFiles(orders: DefaultOrders.make(count: 5, anchor: day1), to: directory)
            let storage = { (anchor: Date) in StorageConfiguration(dataDirectory: directory, stateDirectory: directory, anchor: anchor) }
            _ = try CollectionService.open(storage(day1), log: .discarding)
            let later = try CollectionService.open(storage(day4), log: .discarding)
            #expect(later.engine(Orders.self).state.allItems == DefaultOrders.make(count: 5, anchor: day1))
            #expect(!FileManager.default.fileExists(atPath: directory + "/orders.embedded"))
        }
    }
}
