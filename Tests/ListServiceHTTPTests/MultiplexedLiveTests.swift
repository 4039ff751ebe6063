import Basics
import Foundation
import HTTPLite
import ListServiceHTTP
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// One stream for many lists (`GET /live`, `PUT`/`DELETE /live/:stream/lists/:key`): every
/// list folded from its events equals a fresh page whatever is added, replaced, removed and
/// written; a reconnect with the stream's last id resumes every list, resetting only those
/// whose history is gone; and every refusal is the right problem.
@Suite struct MultiplexedLiveTests {
    static let session = "mux-session"
    let service: CollectionService
    let router: ServiceHandler

    init(configure: (inout LiveConfiguration) -> Void = { _ in }) {
        var configuration = LiveListTests.eventPerBatch
        configure(&configuration)
        service = CollectionService(
            stores: [
                CollectionState<Orders>(items: DefaultOrders.make(count: 60, anchor: LiveListTests.now)),
                CollectionState<Tasks>(items: DefaultTasks.make(count: 30, anchor: LiveListTests.now)),
                CollectionState<Users>(items: DefaultUsers.make(count: 25)),
            ], live: configuration, clock: { LiveListTests.now })
        router = ServiceRoutes.makeHandler(service: service)
    }

    var headers: HTTPHeaders { ["X-Session-ID": Self.session] }

    /// What `GET /live` does, into a recorder: the session's stream, resumed after `lastEventID`.
    func open(lastEventID: String? = nil) throws -> LiveRecorder { try Self.open(service, session: Self.session, lastEventID: lastEventID) }

    /// What `GET /live` does for `session` of `service`, into a recorder.
    static func open(_ service: CollectionService, session id: String, lastEventID: String? = nil) throws -> LiveRecorder {
        let request = Request(method: .get, path: "/live", headers: ["X-Session-ID": id])
        let session = service.sessions.session(id: id, adoptsUnknownID: true, now: service.now).session
        let paths = LivePaths(endpoints: service.endpoints, credentials: .none)
        let recorder = LiveRecorder()
        try service.liveStreams.open(owner: session.id, lastEventID: lastEventID) { path, lastEventID in
            try? paths.opening(for: path, as: request, session: session, lastEventID: lastEventID)
        }.start(recorder)
        return recorder
    }

    /// The stream's id, as its `hello` named it.
    static func streamID(_ recorder: LiveRecorder) -> String {
        recorder.events.first { $0.name == "hello" }?.data["stream"] as? String ?? ""
    }

    func streamID(_ recorder: LiveRecorder) -> String { Self.streamID(recorder) }

    func put(_ key: String, _ path: String, on stream: String, headers: HTTPHeaders? = nil) -> Response {
        router.send(
            .put, "/live/\(stream)/lists/\(key)", headers: headers ?? self.headers, json: #"{"path":\#(JSONString.quoted(path))}"#)
    }

    /// Each list's window folded from the stream's events (a `closed` list dropped); the ids
    /// checked to count up by one.
    func folded(_ recorder: LiveRecorder, stream: String, problems: inout [String]) -> [String: LiveWindowReplica] {
        var windows: [String: LiveWindowReplica] = [:]
        var expectedSeq: UInt64?
        for event in recorder.events where event.name != "hello" {
            if let seq = LiveToken(event.id).flatMap({ $0.epoch == stream ? $0.v : nil }) {
                if let expectedSeq, seq != expectedSeq { problems.append("id \(event.id) after \(expectedSeq - 1)") }
                expectedSeq = seq + 1
            } else {
                problems.append("an id not of the stream: \(event.id)")
            }
            guard let key = event.data["list"] as? String else {
                problems.append("\(event.name) without its list")
                continue
            }
            if event.name == "closed" {
                windows[key] = nil
                continue
            }
            windows[key, default: LiveWindowReplica()].apply(event)
        }
        return windows
    }

    /// A random list path, like the per-list property test's.
    static func randomPath(_ generator: inout SplitMix64) -> String {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0, 1:
            let filter = ["all", "pending", "completed", "cancelled", "highValue"].randomElement(using: &generator) ?? "all"
            let sort = ["date", "total", "customer"].randomElement(using: &generator) ?? "date"
            return "/orders/live?filter=\(filter)&sort=\(sort)&limit=\(Int.random(in: 2...6, using: &generator))"
        case 2: return "/tasks/live?view=\(["active", "archived", "all"].randomElement(using: &generator) ?? "all")&limit=4"
        default:
            let sort = ["name", "taps"].randomElement(using: &generator) ?? "name"
            return "/users/live?sort=\(sort)&order=\(Bool.random(using: &generator) ? "asc" : "desc")&limit=4"
        }
    }

    @Test func listsAddedReplacedAndRemovedAtRandom_eachFoldsToAFreshPage() throws {
        let recorder = try open()
        let stream = streamID(recorder)
        #expect(stream.count == 32)
        var generator = SplitMix64(seed: 29)
        var paths: [String: String] = [:]
        for step in 0..<200 {
            let key = ["a", "b", "c", "d", "e"].randomElement(using: &generator) ?? "a"
            switch Int.random(in: 0..<10, using: &generator) {
            case 0, 1, 2:
                let path = Self.randomPath(&generator)
                #expect(put(key, path, on: stream).status == .ok)
                paths[key] = path
            case 3:
                let removed = router.send(.delete, "/live/\(stream)/lists/\(key)", headers: headers)
                #expect(removed.status == (paths[key] == nil ? .notFound : .noContent))
                paths[key] = nil
            default:
                let order = "o-" + String(zeroPadded: Int.random(in: 1...62, using: &generator), width: 6)
                let user = "u-" + String(zeroPadded: Int.random(in: 1...25, using: &generator), width: 6)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: _ = router.send(.post, "/orders/\(order)/complete")
                case 1: _ = router.send(.post, "/orders/\(order)/cancel")
                case 2: _ = router.send(.post, "/orders", json: Order.validCreateBody)
                case 3:
                    _ = router.send(
                        .patch, "/tasks/t-\(String(zeroPadded: Int.random(in: 1...30, using: &generator), width: 6))",
                        json: #"{"isArchived": true}"#)
                default: _ = router.send(.post, "/users/\(user)/tap")
                }
            }
            service.live.settle()
            var problems: [String] = []
            let windows = folded(recorder, stream: stream, problems: &problems)
            #expect(problems.isEmpty, "step \(step): \(problems)")
            #expect(Set(windows.keys) == Set(paths.keys), "step \(step): the lists on the stream")
            for (key, path) in paths {
                let parts = path.split(separator: "?")
                let query = try QueryParameters(parsing: String(parts[1])).pairs.map { ($0.name, $0.value) }
                let fresh = router.send(.get, String(parts[0].dropLast("/live".count)), query: query).bodyJSON
                let window = windows[key] ?? LiveWindowReplica()
                #expect(window.problems.isEmpty, "step \(step) \(key) \(path): \(window.problems)")
                #expect((window.items as NSArray).isEqual(to: fresh["items"] as? [[String: Any]] ?? []), "step \(step) \(key) \(path)")
                #expect(window.total == fresh["total"] as? Int, "step \(step) \(key) \(path): total")
            }
        }
        #expect(recorder.events.filter { $0.name == "delta" }.count > 25, "writes reached the lists as deltas")
        #expect(service.live.metrics.streamsOpen.load(ordering: .relaxed) == 1, "one place under the caps for every list")
    }

    @Test func aReconnect_resumesEveryList_andResetsOnlyThoseWhoseHistoryIsGone() throws {
        let suite = MultiplexedLiveTests { $0.replayEvents = 3 }
        let first = try suite.open()
        let stream = suite.streamID(first)
        #expect(suite.put("byName", "/users/live?sort=name&limit=25", on: stream).status == .ok)
        #expect(suite.put("byTaps", "/users/live?sort=taps&order=desc&limit=25", on: stream).status == .ok)
        #expect(suite.put("pending", "/orders/live?filter=pending&sort=date&limit=50", on: stream).status == .ok)
        suite.service.live.settle()
        let lastID = try #require(first.events.last?.id)
        first.close()
        // Two changes to both people lists (their history holds three), five to the orders'.
        for _ in 0..<2 {
            _ = suite.router.send(.post, "/users/u-000003/tap")
            suite.service.live.settle()
        }
        let pending =
            (suite.router.send(.get, "/orders", query: [("filter", "pending"), ("limit", "5")]).bodyJSON["items"]
            as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(pending.count == 5)
        for id in pending {
            _ = suite.router.send(.post, "/orders/\(id)/complete")
            suite.service.live.settle()
        }
        let second = try suite.open(lastEventID: lastID)
        suite.service.live.settle()
        #expect(suite.streamID(second) == stream, "the same stream")
        let events = second.events.filter { $0.name != "hello" }
        #expect(events.filter { $0.data["list"] as? String == "byName" }.map(\.name) == ["delta", "delta"])
        #expect(events.filter { $0.data["list"] as? String == "byTaps" }.map(\.name) == ["delta", "delta"])
        let orders = events.filter { $0.data["list"] as? String == "pending" }
        #expect(orders.map(\.name) == ["reset"] && orders.first?.data["reason"] as? String == "gap")
        // Folded on from what the first connection had, every list is the page as it is now.
        var problems: [String] = []
        var windows = suite.folded(first, stream: stream, problems: &problems)
        for event in events { windows[event.data["list"] as? String ?? "", default: LiveWindowReplica()].apply(event) }
        for (key, list, query) in [
            ("byName", "/users", [("sort", "name"), ("limit", "25")]),
            ("byTaps", "/users", [("sort", "taps"), ("order", "desc"), ("limit", "25")]),
            ("pending", "/orders", [("filter", "pending"), ("sort", "date"), ("limit", "50")]),
        ] {
            let fresh = suite.router.send(.get, list, query: query).bodyJSON
            #expect((windows[key]?.items as NSArray?)?.isEqual(to: fresh["items"] as? [[String: Any]] ?? []) == true, "\(key)")
            #expect(windows[key]?.problems.isEmpty == true, "\(key): \(windows[key]?.problems ?? [])")
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func refusals_nameWhatIsWrong_andLeaveTheStreamAsItWas() throws {
        let suite = MultiplexedLiveTests { $0.maxListsPerStream = 2 }
        let recorder = try suite.open()
        let stream = suite.streamID(recorder)
        #expect(suite.put("one", "/orders/live?filter=pending", on: stream).status == .ok)
        let badParameter = suite.put("two", "/orders/live?filter=bogus", on: stream)
        #expect(badParameter.status == .badRequest && badParameter.bodyJSON["parameter"] as? String == "filter")
        let badEncoding = suite.put("two", "/orders/live?filter=pending&q=50%", on: stream)
        #expect(badEncoding.status == .badRequest && badEncoding.bodyJSON["parameter"] as? String == "q")
        let notALivePath = suite.put("two", "/orders?filter=pending", on: stream)
        #expect(notALivePath.status == .unprocessableContent)
        #expect((notALivePath.bodyJSON["errors"] as? [[String: Any]])?.first?["field"] as? String == "path")
        let extraMember = suite.router.send(
            .put, "/live/\(stream)/lists/two", headers: suite.headers, json: #"{"path":"/orders/live","colour":"red"}"#)
        #expect(extraMember.status == .unprocessableContent)
        #expect((extraMember.bodyJSON["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == ["colour"])
        let badKey = suite.put("no spaces", "/orders/live", on: stream)
        #expect(badKey.status == .badRequest && badKey.bodyJSON["parameter"] as? String == "key")
        let otherSession = suite.put("two", "/orders/live", on: stream, headers: ["X-Session-ID": "someone-else"])
        #expect(otherSession.status == .notFound)
        #expect(suite.put("two", "/users/live", on: stream).status == .ok)
        let third = suite.put("three", "/tasks/live", on: stream)
        #expect(third.status == .conflict && third.bodyJSON["code"] as? String == "too-many-lists")
        #expect(suite.put("two", "/tasks/live", on: stream).status == .ok, "replacing a list is not adding one")
        #expect(suite.router.send(.delete, "/live/\(stream)/lists/nothing", headers: suite.headers).status == .notFound)
        #expect(suite.router.send(.get, "/live", query: [("limit", "5")], headers: suite.headers).status == .badRequest)
        suite.service.live.settle()
        let names = recorder.events.map { "\($0.name):\($0.data["list"] as? String ?? "")" }
        #expect(names == ["hello:", "snapshot:one", "snapshot:two", "snapshot:two"], "\(names)")
        #expect(suite.service.liveStreams.stream(id: stream, owner: Self.session)?.lists.map(\.key) == ["one", "two"])
    }

    /// Putting a list on one's own stream changes no data: where writes need a key and
    /// reads of orders a token, an anonymous page still puts a public list (and is refused
    /// the orders, as their GET is), while an anonymous write stays refused.
    @Test func puttingAList_needsWhatItsReadNeeds_notWhatAWriteNeeds() throws {
        let guarded = ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(
                hosts: .any, cors: .off, keys: APIKeys(keys: ["service-key"], boundToLoopback: true),
                credentials: Credentials(tokens: nil, requiresIdentity: true)))
        let stream = streamID(try open())
        let path = #"{"path":"/quakes/live"}"#
        #expect(guarded.send(.put, "/live/\(stream)/lists/q", headers: headers, json: path).status == .ok)
        #expect(guarded.send(.delete, "/live/\(stream)/lists/q", headers: headers).status == .noContent)
        let orders = guarded.send(.put, "/live/\(stream)/lists/o", headers: headers, json: #"{"path":"/orders/live"}"#)
        #expect(orders.status == .unauthorized)
        #expect(guarded.send(.post, "/orders", headers: headers, json: Order.validCreateBody).status == .unauthorized)
    }

    /// A client resuming from an event older than the stream still remembers for a list gets
    /// that list reset (`gap`), never a window it did not have.
    @Test func resumingFromAnIDTheStreamForgot_resetsTheList() throws {
        let suite = MultiplexedLiveTests { $0.replayEvents = 2 }
        let first = try suite.open()
        let stream = suite.streamID(first)
        #expect(suite.put("people", "/users/live?sort=name&limit=25", on: stream).status == .ok)
        suite.service.live.settle()
        let snapshotID = try #require(first.events.last?.id)
        for _ in 0..<4 {
            _ = suite.router.send(.post, "/users/u-000003/tap")
            suite.service.live.settle()
        }
        #expect(first.events.filter { $0.name == "delta" }.count == 4)
        first.close()
        let second = try suite.open(lastEventID: snapshotID)
        suite.service.live.settle()
        let events = second.events.filter { $0.name != "hello" }
        #expect(events.map(\.name) == ["reset"] && events.first?.data["reason"] as? String == "gap", "\(events.map(\.name))")
    }
}
