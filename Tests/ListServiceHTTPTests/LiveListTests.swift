import Foundation
import Basics
import HTTPLite
import ListServiceHTTP
import Testing

@testable import ListService

@Suite struct LiveListTests {
    static let now = ISO8601.parse("2026-11-20T12:00:00Z") ?? Date()

    /// Every batch its own event at once (no minimum interval), so `settle` sees them all.
    static var eventPerBatch: LiveConfiguration {
        var configuration = LiveConfiguration()
        configuration.minimumEventInterval = .zero
        return configuration
    }

    static func makeService() -> CollectionService {
        CollectionService(
            stores: [
                CollectionState<Orders>(items: DefaultOrders.make(count: 60, anchor: now)),
                CollectionState<Tasks>(items: DefaultTasks.make(count: 30, anchor: now)),
                CollectionState<Users>(items: DefaultUsers.make(count: 25)),
            ], live: eventPerBatch, clock: { now })
    }

    /// Opens a live stream of `collection` with `query` into a recorder.
    static func watch(
        _ collection: String, _ query: [(String, String)], service: CollectionService, purpose: ListPurpose = .list,
        session: Session? = nil, lastEventID: String? = nil
    ) throws -> LiveRecorder {
        guard let endpoint = service.endpoints.first(where: { $0.name == collection }) else { throw LiveTestError.noEndpoint }
        let recorder = LiveRecorder()
        do throws(LiveOpenError) {
            try endpoint.live(ListRequest(parameters: query.map { ($0.0, $0.1) }), session, purpose, lastEventID, .ownStream).start(
                recorder)
        } catch {
            throw LiveTestError.refused("\(error)")
        }
        return recorder
    }

    enum LiveTestError: Error {
        case noEndpoint
        case refused(String)
    }

    /// Waits until the live lists have handled everything committed so far.
    static func settle(_ service: CollectionService) { service.live.settle() }

    @Test func randomWritesKeepEveryWatchedWindowEqualToAFreshPage() throws {
        let service = Self.makeService()
        let router = ServiceRoutes.makeHandler(service: service)
        var generator = SplitMix64(seed: 7)
        var watched: [(collection: String, query: [(String, String)], recorder: LiveRecorder)] = []
        for _ in 0..<24 {
            var query: [(String, String)] = [("limit", String(Int.random(in: 2...7, using: &generator)))]
            let collection = ["orders", "orders", "tasks", "users"].randomElement(using: &generator) ?? "orders"
            switch collection {
            case "orders":
                query.append(
                    ("filter", ["all", "pending", "completed", "cancelled", "highValue"].randomElement(using: &generator) ?? "all"))
                let sort = ["date", "total", "customer", "status"].randomElement(using: &generator) ?? "date"
                query.append(("sort", sort))
                if Bool.random(using: &generator) { query.append(("q", ["a", "jo", "e"].randomElement(using: &generator) ?? "a")) }
                if sort == "date" && Bool.random(using: &generator) {
                    query.append(("group", ["day", "month"].randomElement(using: &generator) ?? "day"))
                }
                if sort == "status" && Bool.random(using: &generator) { query.append(("group", "status")) }
            case "tasks":
                query.append(("view", ["active", "archived", "all"].randomElement(using: &generator) ?? "all"))
                if Bool.random(using: &generator) {
                    query.append(("group", ["due", "priority"].randomElement(using: &generator) ?? "due"))
                }
            default:
                let sort = ["name", "taps"].randomElement(using: &generator) ?? "name"
                query.append(("sort", sort))
                if sort == "name" && Bool.random(using: &generator) { query.append(("group", "initial")) }
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
            case 2: _ = router.send(.post, "/orders", json: Order.validCreateBody)
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
                    (replica.items as NSArray).isEqual(to: expected),
                    "step \(step) \(collection) \(query): window differs from a fresh page")
                #expect(replica.total == fresh["total"] as? Int, "step \(step) \(collection) \(query): total")
                #expect(
                    replica.formattedTotal == fresh["formattedTotal"] as? String, "step \(step) \(collection) \(query): formatted total")
                #expect(replica.counts == fresh["counts"] as? [String: Int], "step \(step) \(collection) \(query): counts")
                #expect(
                    replica.formattedCounts == fresh["formattedCounts"] as? [String: String],
                    "step \(step) \(collection) \(query): formatted counts")
                #expect(
                    replica.position == fresh.filter { LiveWindowReplica.positionFields.contains($0.key) }.compactMapValues { $0 as? Int },
                    "step \(step) \(collection) \(query): index, itemsBefore, itemsAfter")
                #expect(
                    LiveWindowReplica.derived(replica.sections) == LiveWindowReplica.derived(fresh["sections"] as? [[String: Any]] ?? []),
                    "step \(step) \(collection) \(query): sections")
            }
        }
        let deltas = watched.reduce(0) { $0 + $1.recorder.events.filter { $0.name == "delta" }.count }
        #expect(deltas > 50, "the writes reached the windows as deltas, not only resets")
        let sectionDeltas = watched.reduce(0) { $0 + $1.recorder.events.filter { $0.name == "delta" && $0.data["sections"] != nil }.count }
        #expect(watched.contains { $0.query.contains { $0.0 == "group" } } && sectionDeltas > 5, "sections changed live")
    }
}

extension LiveListTests {
    static func userID(atIndex index: Int, _ query: [(String, String)], router: some RequestHandling) -> String {
        let items = router.send(.get, "/users", query: query).bodyJSON["items"] as? [[String: Any]] ?? []
        return items.indices.contains(index) ? items[index]["id"] as? String ?? "" : ""
    }

    @Test func aTapSendsOneUpdateByName_andAMoveByTaps() throws {
        let service = Self.makeService()
        let router = ServiceRoutes.makeHandler(service: service)
        let byName = try Self.watch("users", [("sort", "name")], service: service)
        let byTaps = try Self.watch("users", [("sort", "taps"), ("order", "desc")], service: service)
        // The user in third place by taps; enough taps put it first.
        let id = Self.userID(atIndex: 2, [("sort", "taps"), ("order", "desc")], router: router)
        let taps = (router.send(.get, "/users/\(id)").bodyJSON["taps"] as? Int) ?? 0
        let leader =
            (router.send(.get, "/users", query: [("sort", "taps"), ("order", "desc")]).bodyJSON["items"] as? [[String: Any]])?
            .first?["taps"] as? Int ?? 0
        for _ in 0...(leader - taps) {
            _ = router.send(.post, "/users/\(id)/tap")
            Self.settle(service)
        }
        let nameDeltas = byName.events.filter { $0.name == "delta" }
        #expect(nameDeltas.count == leader - taps + 1, "one event per write")
        for delta in nameDeltas {
            let ops = delta.data["ops"] as? [[String: Any]] ?? []
            #expect(ops.count == 1 && ops.first?["op"] as? String == "update" && ops.first?["id"] as? String == id)
        }
        let lastByTaps = byTaps.events.last { $0.name == "delta" }?.data["ops"] as? [[String: Any]] ?? []
        #expect(lastByTaps.map { $0["op"] as? String } == ["move", "update"])
        #expect(lastByTaps.first?["to"] as? Int == 0 && lastByTaps.first?["id"] as? String == id, "\(lastByTaps) \(id)")
    }

    /// With no time for a step, a round takes one list a step, and each list's event is sent
    /// before the next list is refreshed; with plenty, the whole round is one step.
    @Test(arguments: [(Duration.zero, [1, 2, 3]), (Duration.seconds(60), [3])])
    func aRoundRefreshesListsInSteps_andEachStepsEventsGoOutBeforeTheNext(step: Duration, expected: [Int]) throws {
        var configuration = Self.eventPerBatch
        configuration.refreshStep = step
        let service = CollectionService(
            stores: [CollectionState<Users>(items: DefaultUsers.make(count: 25))], live: configuration, clock: { Self.now })
        let recorders = Locked<[LiveRecorder]>([])
        let deltasAfterEachStep = Locked<[[Int]]>([])
        let queue = DispatchQueue(label: "test.live")
        service.live.runUpdates(on: [
            { step in
                queue.async {
                    var seen: [Int] = []
                    var hasMore = true
                    while hasMore {
                        hasMore = step()
                        seen.append(recorders.withLock { $0 }.filter { $0.events.contains { $0.name == "delta" } }.count)
                    }
                    deltasAfterEachStep.withLock { $0.append(seen) }
                }
            }
        ])
        let router = ServiceRoutes.makeHandler(service: service)
        let watching = try (2...4).map { limit in try Self.watch("users", [("sort", "name"), ("limit", String(limit))], service: service) }
        recorders.withLock { $0 = watching }
        let id = Self.userID(atIndex: 0, [("sort", "name")], router: router)
        _ = router.send(.post, "/users/\(id)/tap")
        Self.settle(service)
        #expect(deltasAfterEachStep.withLock { $0.first } == expected, "the lists with a delta sent after each step")
    }

    @Test func oneChangedRowIsFormattedOncePerLocale_howeverManyStreams() throws {
        let service = Self.makeService()
        let router = ServiceRoutes.makeHandler(service: service)
        var recorders: [LiveRecorder] = []
        for _ in 0..<20 { recorders.append(try Self.watch("users", [("sort", "name")], service: service)) }
        for _ in 0..<5 { recorders.append(try Self.watch("users", [("sort", "name"), ("limit", "100")], service: service)) }
        for _ in 0..<5 { recorders.append(try Self.watch("users", [("sort", "name"), ("locale", "de")], service: service)) }
        let id = Self.userID(atIndex: 0, [("sort", "name")], router: router)
        let before = service.metrics.value(.rowsFormatted)
        _ = router.send(.post, "/users/\(id)/tap")  // its answer formats the row once more, for the client
        Self.settle(service)
        #expect(service.metrics.value(.rowsFormatted) - before == 1 + 2, "the answer, then one row per locale (en, de) for 30 streams")
        #expect(recorders.allSatisfy { $0.events.last?.name == "delta" })
    }

    @Test func reconnectReplaysWhatWasMissed_orResetsWithAReason() throws {
        let service = Self.makeService()
        let router = ServiceRoutes.makeHandler(service: service)
        let query = [("sort", "name"), ("limit", "5")]
        let first = try Self.watch("users", query, service: service)
        let id = Self.userID(atIndex: 1, query, router: router)
        _ = router.send(.post, "/users/\(id)/tap")
        Self.settle(service)
        guard let lastSeen = first.events.last?.id else { throw LiveTestError.noEndpoint }
        first.close()
        for _ in 0..<2 {  // settled one by one: changes that meet in the update queue share an event
            _ = router.send(.post, "/users/\(id)/tap")
            Self.settle(service)
        }
        let resumed = try Self.watch("users", query, service: service, lastEventID: lastSeen)
        #expect(resumed.events.map(\.name) == ["delta", "delta"], "the two missed events, replayed")
        #expect(service.live.metrics.replays.load(ordering: .relaxed) == 1)
        let current = resumed.events.last?.id
        #expect(try Self.watch("users", query, service: service, lastEventID: current).events.isEmpty, "up to date: nothing to send")
        let reasons = try [
            ("zzz-3", query), ("nonsense", query), ("\(service.live.epoch)-999999", query), ("\(service.live.epoch)-1", [("sort", "taps")]),
        ].map { token, query in try Self.watch("users", query, service: service, lastEventID: token).events.first?.data["reason"] as? String
        }
        #expect(reasons == ["restart", "gap", "gap", "expired"])
    }

    @Test func aSlowReaderSkipsEvents_thenGetsOneSlowReset_andOthersAreNotHeldUp() throws {
        let service = Self.makeService()
        let router = ServiceRoutes.makeHandler(service: service)
        let slow = try Self.watch("users", [("sort", "name")], service: service)
        let brisk = try Self.watch("users", [("sort", "name")], service: service)
        slow.backlog.store(300 * 1024, ordering: .relaxed)
        let id = Self.userID(atIndex: 0, [("sort", "name")], router: router)
        for _ in 0..<3 {  // settled one by one: changes that meet in the update queue share an event
            _ = router.send(.post, "/users/\(id)/tap")
            Self.settle(service)
        }
        #expect(brisk.events.filter { $0.name == "delta" }.count == 3)
        #expect(slow.events.map(\.name) == ["snapshot"], "past 256 KiB unsent, its deltas are dropped")
        slow.catchUp()
        Self.settle(service)
        #expect(slow.events.map(\.name) == ["snapshot", "reset"])
        #expect(slow.events.last?.data["reason"] as? String == "slow")
        var replica = LiveWindowReplica()
        for event in slow.events { replica.apply(event) }
        let fresh = router.send(.get, "/users", query: [("sort", "name")]).bodyJSON["items"] as? [[String: Any]] ?? []
        #expect((replica.items as NSArray).isEqual(to: fresh))
        _ = router.send(.post, "/users/\(id)/tap")
        Self.settle(service)
        #expect(slow.events.last?.name == "delta", "caught up, it gets deltas again")
    }

    @Test func capsPerSessionAndPerProcess_refuseBeforeTheStreamOpens() throws {
        var configuration = Self.eventPerBatch
        configuration.maxStreams = 10
        let service = CollectionService(stores: [CollectionState<Users>(items: DefaultUsers.make(count: 5))], live: configuration)
        let session = service.sessions.session(id: nil, adoptsUnknownID: false, now: Date()).session
        var held: [LiveRecorder] = []
        for _ in 0..<8 { held.append(try Self.watch("users", [], service: service, session: session)) }
        #expect(throws: LiveTestError.self) { try Self.watch("users", [], service: service, session: session) }
        held[0].close()
        held.append(try Self.watch("users", [], service: service, session: session))  // a closed stream gives its place back
        held.append(try Self.watch("users", [], service: service))
        held.append(try Self.watch("users", [], service: service))
        #expect(throws: LiveTestError.self) { try Self.watch("users", [], service: service) }
        #expect(service.live.metrics.rejections.load(ordering: .relaxed) == 2)
        #expect(service.live.metrics.streamsOpen.load(ordering: .relaxed) == 10)
    }

    @Test func aBadParameterIsTheListsProblem() throws {
        let service = Self.makeService()
        let router = ServiceRoutes.makeHandler(service: service)
        let response = router.send(.get, "/orders/live", query: [("filter", "bogus")])
        #expect(response.status == .badRequest)
        #expect(response.bodyJSON["parameter"] as? String == "filter")
        let listResponse = router.send(.get, "/orders", query: [("filter", "bogus")])
        #expect(response.bodyJSON["detail"] as? String == listResponse.bodyJSON["detail"] as? String)
        #expect(service.live.metrics.streamsOpen.load(ordering: .relaxed) == 0, "a refused request holds no place")
        let stream = router.send(.get, "/orders/live", query: [("filter", "pending")])
        #expect(stream.headers["Content-Type"] == "text/event-stream" && stream.headers["Cache-Control"] == "no-store")
        #expect(stream.headers["X-Accel-Buffering"] == "no")
    }
}

extension LiveListTests {
    @Test func timeAloneChangesLabels_andTheStreamGetsThemWhenThePageWouldExpire() async throws {
        let clock = Locked(Self.now)
        let service = CollectionService(
            stores: [CollectionState<Tasks>(items: DefaultTasks.make(count: 30, anchor: Self.now))], clock: { clock.withLock { $0 } })
        let router = ServiceRoutes.makeHandler(service: service)
        let query = [("view", "active"), ("limit", "10")]
        let watcher = try Self.watch("tasks", query, service: service)
        let before = router.send(.get, "/tasks", query: query).bodyJSON["items"] as? [[String: Any]] ?? []
        clock.withLock { $0 += 3 * 86_400 }
        var replica = LiveWindowReplica()
        for _ in 0..<40 where replica.v == 0 || watcher.events.count < 2 {
            try await Task.sleep(for: .milliseconds(100))
            replica = LiveWindowReplica()
            for event in watcher.events { replica.apply(event) }
        }
        let after = router.send(.get, "/tasks", query: query).bodyJSON["items"] as? [[String: Any]] ?? []
        #expect(!(before as NSArray).isEqual(to: after), "three days later the due labels read differently")
        // Every row's label changed: more than half the window, so a reset (a delta otherwise).
        #expect(watcher.events.dropFirst().first?.name == "reset", "no write happened, yet the stream was brought up to date")
        #expect((replica.items as NSArray).isEqual(to: after))
    }
}

extension LiveListTests {
    @Test func aTaskFallingDue_movesTheOverdueCount_onTheStream_withoutAWrite() async throws {
        let clock = Locked(Self.now)
        let soon = TaskItem(
            id: "t-soon", title: "Falls due in a second", isActive: true, isArchived: false, dueDate: Self.now + 1, priority: .low)
        let service = CollectionService(
            stores: [CollectionState<Tasks>(items: DefaultTasks.make(count: 30, anchor: Self.now) + [soon])],
            clock: { clock.withLock { $0 } })
        let router = ServiceRoutes.makeHandler(service: service)
        let query = [("view", "archived"), ("limit", "3")]  // the task is in no row of this window
        let watcher = try Self.watch("tasks", query, service: service)
        let before = router.send(.get, "/tasks", query: query).bodyJSON["counts"] as? [String: Int] ?? [:]
        clock.withLock { $0 += 2 }
        var replica = LiveWindowReplica()
        for _ in 0..<40 {
            replica = LiveWindowReplica()
            for event in watcher.events { replica.apply(event) }
            if let overdue = replica.counts["overdue"], overdue != before["overdue"] { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let after = router.send(.get, "/tasks", query: query).bodyJSON["counts"] as? [String: Int] ?? [:]
        #expect(after["overdue"] == (before["overdue"] ?? 0) + 1, "a page read now counts it overdue")
        #expect(replica.counts == after, "no write happened, yet the stream's counts were brought up to date")
        #expect(replica.problems.isEmpty)
    }

    @Test func underAFloodOfWrites_aListSendsAtMostOneEventPerInterval_andEndsExact() async throws {
        var configuration = LiveConfiguration()
        configuration.minimumEventInterval = .milliseconds(300)
        let service = CollectionService(stores: [CollectionState<Users>(items: DefaultUsers.make(count: 10))], live: configuration)
        let router = ServiceRoutes.makeHandler(service: service)
        let watcher = try Self.watch("users", [("sort", "taps"), ("order", "desc")], service: service)
        let id = Self.userID(atIndex: 5, [("sort", "taps"), ("order", "desc")], router: router)
        for _ in 0..<20 { _ = router.send(.post, "/users/\(id)/tap") }
        try await Task.sleep(for: .milliseconds(700))
        Self.settle(service)
        let deltas = watcher.events.filter { $0.name == "delta" }
        #expect((1...3).contains(deltas.count), "20 writes within the interval: \(deltas.count) events")
        var replica = LiveWindowReplica()
        for event in watcher.events { replica.apply(event) }
        let fresh = router.send(.get, "/users", query: [("sort", "taps"), ("order", "desc")]).bodyJSON["items"] as? [[String: Any]] ?? []
        #expect(replica.problems.isEmpty && (replica.items as NSArray).isEqual(to: fresh))
    }
}

extension LiveListTests {
    @Test func listsNoOneWatches_doNotPileUp_pastTheStreamCap() throws {
        var configuration = Self.eventPerBatch
        configuration.maxStreams = 5
        let service = CollectionService(stores: [CollectionState<Users>(items: DefaultUsers.make(count: 30))], live: configuration)
        let kept = try Self.watch("users", [("limit", "1")], service: service)
        for limit in 2...30 {
            let passing = try Self.watch("users", [("limit", String(limit))], service: service)
            passing.close()  // a client cycling through criteria
        }
        let lists = service.live.metrics.lists.load(ordering: .relaxed)
        #expect(lists <= 5, "\(lists) lists kept")
        #expect(kept.isOpen && service.live.metrics.streamsOpen.load(ordering: .relaxed) <= 2)
        let rejoined = try Self.watch("users", [("limit", "1")], service: service, lastEventID: kept.events.last?.id)
        #expect(rejoined.events.isEmpty, "the watched list survived: a reconnect to it is up to date")
    }
}
