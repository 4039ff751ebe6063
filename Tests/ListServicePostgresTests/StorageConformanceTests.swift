import Dispatch
import Foundation
import Basics
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP
@testable import ListServicePostgres

/// What every `ChangeStorage` must do, run against each one alike (memory, the journal, and
/// PostgreSQL where it is installed) through the service, as writes reach it: what was
/// acknowledged is there after a reload, ids are never given twice, concurrent writes all
/// land, a shared storage refuses a stale decision, and one that cannot save answers 503 and
/// keeps nothing. A new storage passes by adding its case.
@Suite struct StorageConformanceTests {
    @Test(arguments: StorageKind.available)
    func acknowledgedChanges_areThereAfterAReload(kind: StorageKind) throws {
        let subject = try StorageSubject(kind)
        let service = try subject.openService()
        let router = ServiceRoutes.makeHandler(service: service)
        let created = router.send(.post, "/orders", json: Order.validCreateBody)
        #expect(created.status == .created)
        let newID = try #require(created.headers["Location"]?.split(separator: "/").last.map(String.init))
        let orders = service.engine(Orders.self).state.allItems
        let pending = try #require(orders.first { $0.status == .pending }).id
        let deleted = try #require(orders.last { $0.id != pending && $0.id != newID }).id
        #expect(router.send(.post, "/orders/\(pending)/cancel").status == .ok)
        #expect(router.send(.delete, "/orders/\(deleted)").status == .noContent)
        service.writes.finishBackgroundWork()

        let reloaded = try subject.openService().engine(Orders.self).state
        #expect(reloaded.item(id: newID)?.customerName == "Zoë Kim")
        #expect(reloaded.item(id: pending)?.status == .cancelled)
        #expect(reloaded.item(id: deleted) == nil)
        #expect(reloaded.count == orders.count - 1)
    }

    @Test(arguments: StorageKind.available)
    func idsAreNeverGivenTwice_evenOnceTheirItemsAreDeleted(kind: StorageKind) throws {
        let subject = try StorageSubject(kind)
        let router = ServiceRoutes.makeHandler(service: try subject.openService())
        let first = try #require(router.send(.post, "/orders", json: Order.validCreateBody).headers["Location"])
        #expect(router.send(.delete, first).status == .noContent)

        let again = ServiceRoutes.makeHandler(service: try subject.openService())
        let second = try #require(again.send(.post, "/orders", json: Order.validCreateBody).headers["Location"])
        #expect(second != first)
        #expect(second > first, "ids continue after the deleted one: \(first) then \(second)")
    }

    @Test(arguments: StorageKind.available)
    func concurrentWrites_allLand_eachWithItsOwnID(kind: StorageKind) throws {
        let subject = try StorageSubject(kind)
        let router = ServiceRoutes.makeHandler(service: try subject.openService())
        let locations = Locked<[String?]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { _ in
            let response = router.send(.post, "/orders", json: Order.validCreateBody)
            locations.withLock { $0.append(response.status == .created ? response.headers["Location"] : nil) }
        }
        let ids = locations.withLock { $0 }.compactMap { $0?.split(separator: "/").last.map(String.init) }
        #expect(ids.count == 24 && Set(ids).count == 24)
        let reloaded = try subject.openService().engine(Orders.self).state
        #expect(ids.allSatisfy { reloaded.item(id: $0) != nil })
    }

    /// Storage others write too: a change decided before another process's change to the
    /// same item is refused as stale, and nothing of its batch is kept.
    @Test(arguments: StorageKind.available.filter(\.isShared))
    func aStaleDecision_savesNothing(kind: StorageKind) throws {
        let subject = try StorageSubject(kind)
        let first = subject.open(), second = subject.open()
        let loaded = try first.load()
        _ = try second.load()
        let order = try #require((loaded.stores.first as? CollectionState<Orders>)?.allItems.prefix(2))
        func renamed(_ order: Order, _ name: String) -> StoredChange {
            var order = order
            order.customerName = name
            return StoredChange(collection: Orders.name, id: order.id, record: Orders.record(of: order))
        }
        guard case .appended(let position) = first.append([renamed(order[0], "First")], decidedAt: loaded.position) else {
            Issue.record("the first change was not saved")
            return
        }
        let stale = second.append([renamed(order[1], "Second"), renamed(order[0], "Second")], decidedAt: loaded.position)
        #expect(stale == .stale)
        let state = try #require(try subject.open().load().stores.first as? CollectionState<Orders>)
        #expect(state.item(id: order[0].id)?.customerName == "First")
        #expect(state.item(id: order[1].id)?.customerName == order[1].customerName, "the stale batch kept nothing")
        #expect(position > loaded.position)
    }

    /// Storage that can stop accepting writes (a stopped database): the write is answered 503,
    /// and once storage is back nothing of it is there, and writes go on.
    @Test(arguments: StorageKind.available.filter(\.canBeStopped))
    func aFailingAppend_answers503_andKeepsNothing(kind: StorageKind) throws {
        let subject = try StorageSubject(kind)
        let service = try subject.openService()
        let router = ServiceRoutes.makeHandler(service: service)
        let before = service.engine(Orders.self).state.count
        try subject.stop()
        #expect(router.send(.post, "/orders", json: Order.validCreateBody).status == .serviceUnavailable)
        try subject.restart()
        #expect(try subject.openService().engine(Orders.self).state.count == before)
        // The lost connection is made again at most once per backoff interval, so a write in
        // the first one is still refused; within the longest interval one is accepted.
        let deadline = ContinuousClock.now + PostgresLink.longestDelay + .seconds(1)
        var status = router.send(.post, "/orders", json: Order.validCreateBody).status
        while status == .serviceUnavailable, ContinuousClock.now < deadline {
            usleep(20_000)
            status = router.send(.post, "/orders", json: Order.validCreateBody).status
        }
        #expect(status == .created)
        #expect(service.engine(Orders.self).state.count == before + 1, "each refused write kept nothing")
    }

    /// A keyed write is answered once: a retry under its key, after a compaction and a
    /// restart, gets the first answer again and creates nothing.
    @Test(arguments: StorageKind.available)
    func aKeyedWrite_isReplayedAfterAReload(kind: StorageKind) throws {
        let subject = try StorageSubject(kind)
        let service = try subject.openService()
        let key: HTTPHeaders = ["Idempotency-Key": "conformance-1"]
        let first = ServiceRoutes.makeHandler(service: service).send(.post, "/orders", headers: key, json: Order.validCreateBody)
        #expect(first.status == .created)
        let count = service.engine(Orders.self).state.count
        service.writes.compactNow()
        service.writes.finishBackgroundWork()

        let reopened = try subject.openService()
        let retry = ServiceRoutes.makeHandler(service: reopened).send(.post, "/orders", headers: key, json: Order.validCreateBody)
        #expect(retry.status == .created)
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        #expect(retry.headers["Location"] == first.headers["Location"])
        #expect(retry.headers["ETag"] == first.headers["ETag"])
        #expect(retry.bodyBytes == first.bodyBytes)
        #expect(reopened.engine(Orders.self).state.count == count)
        let other = ServiceRoutes.makeHandler(service: reopened).send(
            .post, "/orders", headers: key, json: Order.validCreateBody.replacingOccurrences(of: "Zoë Kim", with: "Other"))
        #expect(other.status == .unprocessableContent)
        #expect(other.bodyJSON["code"] as? String == "idempotency-key-reused")
    }

    /// A process that dies after its batch is durable and before it answers: the client's
    /// retry under the same key, to the restarted service, gets the answer, and the order
    /// exists once.
    @Test(arguments: StorageKind.available)
    func aCrashBetweenCommitAndAnswer_leavesOneOrder_andTheRetryGetsItsAnswer(kind: StorageKind) throws {
        let subject = try StorageSubject(kind)
        let dying = DyingAfterCommit(subject.open())
        defer { dying.release() }
        let service = try CollectionService.open(storage: dying, log: .discarding, clock: StorageSubject.clock)
        let before = service.engine(Orders.self).state.count
        let key: HTTPHeaders = ["Idempotency-Key": "crash-1"]
        let router = ServiceRoutes.makeHandler(service: service)
        DispatchQueue.global().async { _ = router.send(.post, "/orders", headers: key, json: Order.validCreateBody) }
        #expect(dying.committed.wait(timeout: .now() + 10) == .success)

        let restarted = try subject.openService()
        #expect(restarted.engine(Orders.self).state.count == before + 1, "the batch was durable before the crash")
        let retry = ServiceRoutes.makeHandler(service: restarted).send(.post, "/orders", headers: key, json: Order.validCreateBody)
        #expect(retry.status == .created)
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        let id = try #require(retry.headers["Location"]?.split(separator: "/").last.map(String.init))
        #expect(restarted.engine(Orders.self).state.item(id: id)?.customerName == "Zoë Kim")
        #expect(restarted.engine(Orders.self).state.count == before + 1, "the retry created nothing")
    }

    /// Replicas: a retry that reaches another replica is replayed there (its own decision is
    /// refused as stale, since the key's answer was saved after it), never run twice.
    @Test(arguments: StorageKind.available.filter(\.isShared))
    func aRetryAtAnotherReplica_isReplayed(kind: StorageKind) throws {
        let subject = try StorageSubject(kind)
        let first = try subject.openService(), second = try subject.openService()
        let before = first.engine(Orders.self).state.count
        let key: HTTPHeaders = ["Idempotency-Key": "replica-1"]
        let answer = ServiceRoutes.makeHandler(service: first).send(.post, "/orders", headers: key, json: Order.validCreateBody)
        #expect(answer.status == .created)
        let retry = ServiceRoutes.makeHandler(service: second).send(.post, "/orders", headers: key, json: Order.validCreateBody)
        #expect(retry.status == .created)
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        #expect(retry.headers["Location"] == answer.headers["Location"])
        #expect(try subject.openService().engine(Orders.self).state.count == before + 1)
    }
}

/// Storage that saves a batch and then never returns (until `release`): a process killed
/// after its commit and before its answer.
final class DyingAfterCommit: ChangeStorage, @unchecked Sendable {
    // Invariant: only the semaphores are shared, and they are thread-safe.
    private let inner: any ChangeStorage
    /// Signalled once the first batch is durable.
    let committed = DispatchSemaphore(value: 0)
    private let never = DispatchSemaphore(value: 0)

    init(_ inner: any ChangeStorage) { self.inner = inner }

    func load() throws(StartupError) -> LoadedCollections { try inner.load() }
    func append(_ changes: [StoredChange], decidedAt position: UInt64) -> AppendOutcome {
        let outcome = inner.append(changes, decidedAt: position)
        committed.signal()
        never.wait()
        return outcome
    }
    func changes(after position: UInt64, limit: Int) -> ChangesSince { inner.changes(after: position, limit: limit) }
    func attach(_ host: any StorageHost) { inner.attach(host) }
    var status: ReplicationStatus { inner.status }

    /// Lets the stuck append return (at the test's end).
    func release() { never.signal() }
}

/// A storage the conformance suite runs against.
enum StorageKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case memory, journal, postgres

    /// The kinds this machine can run (PostgreSQL only where it is installed).
    /// Every storage this machine has; in CI all of them (PostgreSQL missing there fails its cases).
    static var available: [StorageKind] { allCases.filter { $0 != .postgres || TemporaryPostgres.isAvailable || Prerequisite.isCI } }

    /// Whether other processes write to the same storage.
    var isShared: Bool { self == .postgres }
    /// Whether a test can make its appends fail and come back.
    var canBeStopped: Bool { self == .postgres }
    var description: String { rawValue }
}

/// One storage's backing (nothing, a state directory, a database), opened as often as a test
/// needs: memory is the one same storage; the journal and PostgreSQL open their files or
/// database again, as a restart would. All start from the same small data set (`SmallData`).
final class StorageSubject {
    /// The storage, opened (again) on this backing.
    let open: () -> any ChangeStorage
    /// The journal's state directory.
    private let directory: String
    private let server: TemporaryPostgres?

    init(_ kind: StorageKind) throws {
        directory = NSTemporaryDirectory() + "listservice-conformance-\(UUID().uuidString)"
        let configuration = StorageConfiguration(dataDirectory: try SmallData.directory(), stateDirectory: nil, anchor: SmallData.anchor)
        switch kind {
        case .memory:
            let memory = configuration.makeStorage(log: .discarding)
            (open, server) = ({ memory }, nil)
        case .journal:
            var journaled = configuration
            journaled.stateDirectory = directory
            (open, server) = ({ JournalStorage(journaled, log: .discarding) }, nil)
        case .postgres:
            let server = try TemporaryPostgres()
            let postgres = PostgresStorage.Configuration(connectionString: server.connectionString) {
                () throws(StartupError) in try configuration.initialStores(log: .discarding)
            }
            (open, self.server) = ({ PostgresStorage(postgres, log: .discarding) }, server)
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A service over the storage, opened (again).
    func openService() throws -> CollectionService {
        try CollectionService.open(storage: open(), log: .discarding, clock: Self.clock)
    }

    /// The services' clock: half a day after the data's anchor.
    static let clock: @Sendable () -> Date = { SmallData.anchor.addingTimeInterval(12 * 3600) }

    func stop() throws { try server?.stop() }
    func restart() throws { try server?.start() }
}
