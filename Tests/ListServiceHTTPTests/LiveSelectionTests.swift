import Basics
import Foundation
import HTTPLite
import ListServiceHTTP
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// A session's quake selection reaches every live list and map it watches, in each of its
/// tabs (per-list streams and `GET /live` alike), as a `selection` event without an id;
/// other sessions hear nothing, and a stream resumed after a selection changed hears it.
@Suite struct LiveSelectionTests {
    let service: CollectionService
    let router: ServiceHandler
    let now = LiveListTests.now

    init() {
        let now = LiveListTests.now
        let quakes = (1...6).map { hour in
            let time = now.addingTimeInterval(-3600 * Double(hour))
            return Earthquake(
                id: "q\(hour)", magnitude: 2 + Double(hour) / 2, place: "\(hour) km N of Anchorage, Alaska", time: time,
                updated: time, longitude: -150, latitude: 61, depthKm: 10)
        }
        service = CollectionService(
            stores: [CollectionState<Quakes>(items: quakes), CollectionState<Orders>(items: DefaultOrders.make(count: 10, anchor: now))],
            live: LiveListTests.eventPerBatch, clock: { now })
        router = ServiceRoutes.makeHandler(service: service)
    }

    func session(_ id: String) -> Session { service.sessions.session(id: id, adoptsUnknownID: true, now: now).session }

    func select(_ id: String?, as session: String) -> Response {
        router.send(
            .put, "/session/selection", headers: ["X-Session-ID": session],
            json: #"{"collection":"quakes","id":\#(id.map(JSONString.quoted) ?? "null")}"#)
    }

    /// A multiplexed stream of `session` with the quake list on it under `key`.
    func multiplexed(_ session: String, key: String, lastEventID: String? = nil) throws -> (LiveRecorder, String) {
        let recorder = try MultiplexedLiveTests.open(service, session: session, lastEventID: lastEventID)
        let stream = MultiplexedLiveTests.streamID(recorder)
        if lastEventID == nil {
            let put = router.send(
                .put, "/live/\(stream)/lists/\(key)", headers: ["X-Session-ID": session], json: #"{"path":"/quakes/live"}"#)
            #expect(put.status == .ok)
        }
        return (recorder, stream)
    }

    @Test func aSelection_reachesEveryListAndMapTheSessionWatches_andNoOtherSession() throws {
        let tab1 = try LiveListTests.watch("quakes", [], service: service, session: session("alice"))
        let tab2 = try LiveListTests.watch("quakes", [], service: service, purpose: .map, session: session("alice"))
        let (tab3, stream) = try multiplexed("alice", key: "quakes-list")
        let orders = try LiveListTests.watch("orders", [], service: service, session: session("alice"))
        let bob = try LiveListTests.watch("quakes", [], service: service, session: session("bob"))
        #expect((tab1.events.first?.data["total"] as? Int ?? 0) == 6, "today's quakes")
        #expect(tab1.events.first?.data["selectedId"] is NSNull)

        #expect(select("q3", as: "alice").status == .ok)
        for tab in [tab1, tab2] {
            let last = try #require(tab.events.last)
            #expect(last.name == "selection" && last.id.isEmpty, "no id: it moves no version")
            #expect(last.data["selectedId"] as? String == "q3")
        }
        let muxed = try #require(tab3.events.last)
        #expect(muxed.name == "selection" && muxed.data["list"] as? String == "quakes-list")
        #expect(muxed.data["selectedId"] as? String == "q3")
        #expect(muxed.id.hasPrefix(stream + "-"), "an id of the stream, like its every event")
        #expect(orders.events.map(\.name) == ["snapshot"], "orders share no selection")
        #expect(bob.events.map(\.name) == ["snapshot"], "another session's selection")

        #expect(select(nil, as: "alice").status == .ok)
        #expect(tab1.events.last?.name == "selection" && tab1.events.last?.data["selectedId"] is NSNull)
        #expect(tab2.events.filter { $0.name == "selection" }.count == 2)
        #expect(select("nope", as: "alice").status == .notFound)
        #expect(tab1.events.filter { $0.name == "selection" }.count == 2, "a refused selection sends nothing")
        #expect(service.live.metrics.events(.selection) == 6)
    }

    @Test func aStreamResumedAfterTheSelectionChanged_hearsIt_afterWhatItMissed() throws {
        let first = try LiveListTests.watch("quakes", [], service: service, session: session("alice"))
        let lastSeen = try #require(first.events.last?.id)
        first.close()
        #expect(select("q2", as: "alice").status == .ok)
        let time = Int(now.timeIntervalSince1970 * 1000) - 3_600_000
        let imported = router.send(
            .post, "/quakes/import",
            json: #"""
                {"type":"FeatureCollection","features":[{"type":"Feature","id":"q1","properties":{"mag":6.1,"place":"1 km N of Anchorage, Alaska",
                "time":\#(time),"updated":\#(time + 1)},"geometry":{"type":"Point","coordinates":[-150,61,10]}}]}
                """#)
        #expect(imported.bodyJSON["updated"] as? Int == 1)
        service.live.settle()
        let resumed = try LiveListTests.watch("quakes", [], service: service, session: session("alice"), lastEventID: lastSeen)
        #expect(resumed.events.map(\.name) == ["delta", "selection"], "the missed delta replayed, then the selection as it is")
        #expect(resumed.events.last?.data["selectedId"] as? String == "q2")
        let upToDate = try #require(resumed.events.first?.id)
        let again = try LiveListTests.watch("quakes", [], service: service, session: session("alice"), lastEventID: upToDate)
        #expect(again.events.map(\.name) == ["selection"], "up to date: the selection alone")
    }

    @Test func aMultiplexedStreamResumedAfterASelectionEvent_resumesItsListWithoutAReset() throws {
        let (first, _) = try multiplexed("alice", key: "q")
        #expect(select("q4", as: "alice").status == .ok)
        let lastSeen = try #require(first.events.last)
        #expect(lastSeen.name == "selection")
        first.close()
        #expect(select("q5", as: "alice").status == .ok)
        let (second, _) = try multiplexed("alice", key: "q", lastEventID: lastSeen.id)
        let events = second.events.filter { $0.name != "hello" }
        #expect(events.map(\.name) == ["selection"], "resumed from the list's snapshot: nothing missed but the selection")
        #expect(events.first?.data["selectedId"] as? String == "q5" && events.first?.data["list"] as? String == "q")
    }
}
