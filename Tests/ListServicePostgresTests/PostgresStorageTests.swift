import Dispatch
import Foundation
import Basics
import Synchronization
import Testing

@testable import ListService
@testable import ListServiceHTTP
@testable import ListServicePostgres

/// `PostgresStorage` against a real PostgreSQL: appends, the optimistic check that keeps two
/// replicas from both winning, the log read in commit order, trimming.
@Suite(Prerequisite.needs(TemporaryPostgres.isAvailable, "PostgreSQL"))
struct PostgresStorageTests {
    static let orders = (1...20).map { Order.make(id: String(format: "o-%06d", $0), customerName: "Customer \($0)") }

    static func storage(_ server: TemporaryPostgres, retaining retained: Int = 1_000) -> PostgresStorage {
        var configuration = PostgresStorage.Configuration(connectionString: server.connectionString) {
            [CollectionState<Orders>(items: orders)]
        }
        configuration.retainedChanges = retained
        return PostgresStorage(configuration, log: ServiceLog { _ in })
    }

    static func change(_ id: String, name: String) -> StoredChange {
        var order = Order.make(id: id, customerName: name)
        order.title = "changed"
        return StoredChange(collection: Orders.name, id: id, record: Orders.record(of: order))
    }

    @Test func aChangeDecidedOnAnOlderState_isStale_andNothingIsSaved() throws {
        let server = try TemporaryPostgres()
        let a = Self.storage(server), b = Self.storage(server)
        let loaded = try a.load()
        #expect(loaded.position == 0)
        #expect((loaded.stores.first as? CollectionState<Orders>)?.count == 20)
        _ = try b.load()
        #expect(a.append([Self.change("o-000001", name: "By A")], decidedAt: 0) == .appended(position: 1))
        #expect(b.append([Self.change("o-000002", name: "By B"), Self.change("o-000001", name: "By B")], decidedAt: 0) == .stale)
        guard case .changes(let logged, let head) = b.changes(after: 0, limit: 100) else {
            Issue.record("the log could not be read")
            return
        }
        #expect(head == 1 && logged.map(\.position) == [1] && logged.map(\.change.id) == ["o-000001"])
        #expect(b.append([Self.change("o-000001", name: "By B")], decidedAt: 1) == .appended(position: 2))
        #expect(a.append([StoredChange(collection: Orders.name, id: "o-000003", record: nil)], decidedAt: 2) == .appended(position: 3))
        let reloaded = try Self.storage(server).load()
        let state = try #require(reloaded.stores.first as? CollectionState<Orders>)
        #expect(reloaded.position == 3)
        #expect(state.item(id: "o-000001")?.customerName == "By B")
        #expect(state.item(id: "o-000002")?.customerName == "Customer 2", "the stale batch saved nothing")
        #expect(state.item(id: "o-000003") == nil && state.count == 19)
        // A deleted item's id stays used, and a change to it decided before the deletion is stale.
        #expect(reloaded.sequences[Orders.name] == 20)
        #expect(b.append([Self.change("o-000003", name: "Too late")], decidedAt: 2) == .stale)
    }

    /// A connection lost while an append waits in the database: the outcome says the batch
    /// may have been saved (it was not, here: the backend died before committing), and the
    /// next append connects again.
    @Test func aConnectionLostMidAppend_isReportedAsMaybeSaved_andTheNextAppendReconnects() throws {
        let server = try TemporaryPostgres()
        let storage = Self.storage(server)
        _ = try storage.load()
        let blocker = try PostgresConnection(server.connectionString)
        try blocker.execute("BEGIN")
        try blocker.execute("SELECT position FROM log_head FOR UPDATE")  // the append waits for this lock
        let outcome = Locked<AppendOutcome?>(nil)
        Thread.detachNewThread {
            let result = storage.append([Self.change("o-000001", name: "Lost")], decidedAt: 0)
            outcome.withLock { $0 = result }
        }
        // Watched from outside the blocker's transaction, whose view of pg_stat_activity is a
        // snapshot taken at its first read.
        let observer = try PostgresConnection(server.connectionString)
        var waiting: String?
        for _ in 0..<1_000 where waiting == nil {
            waiting = try observer.execute(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%listservice_append%'"
            ).firstValue
            usleep(10_000)
        }
        let pid = try #require(waiting)
        try observer.execute("SELECT pg_terminate_backend($1::int)", [pid])
        for _ in 0..<1_000 where outcome.withLock({ $0 }) == nil { usleep(10_000) }
        guard case .failed(let source, _, let mayHaveSaved)? = outcome.withLock({ $0 }) else {
            Issue.record("an append whose connection was lost was not reported as failed: \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(source == StorageSource.database && mayHaveSaved)
        try blocker.execute("ROLLBACK")
        #expect(try blocker.execute("SELECT count(*) FROM change_log").firstValue == "0")
        #expect(storage.append([Self.change("o-000001", name: "Again")], decidedAt: 0) == .appended(position: 1))
        #expect(storage.status.reconnects.load(ordering: .relaxed) == 1)
    }

    /// The ordering hazard: with positions taken inside concurrent transactions, a reader
    /// could see N+1 committed before N and skip N forever. Appends from eight connections at
    /// once, read back continually as they come: the reader sees every position once, in
    /// order, with no gap (a gap would read as `trimmed`), and ends equal to the tables.
    @Test func concurrentAppends_areReadInCommitOrder_withoutAGap() throws {
        let server = try TemporaryPostgres()
        _ = try Self.storage(server).load()
        let writers = (0..<8).map { _ in Self.storage(server) }
        for writer in writers { _ = try writer.load() }
        let reader = Self.storage(server)
        _ = try reader.load()
        let perWriter = 60
        let done = Locked(0)
        let problems = Locked<[String]>([])
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: writers.count) { index in
                for round in 0..<perWriter {
                    // Own ids per writer, so no batch is stale: each append must succeed.
                    let id = String(format: "o-%06d", 100 + index * perWriter + round)
                    let outcome = writers[index].append([Self.change(id, name: "W\(index)-\(round)")], decidedAt: 0)
                    if case .appended = outcome {} else { problems.withLock { $0.append("\(id): \(outcome)") } }
                }
            }
            done.withLock { $0 = 1 }
        }
        var seen: [UInt64] = []
        var position: UInt64 = 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let finished = done.withLock { $0 } == 1
            switch reader.changes(after: position, limit: 7) {
            case .changes(let logged, _):
                seen += logged.map(\.position)
                position = logged.last?.position ?? position
                if finished && logged.isEmpty && position == UInt64(writers.count * perWriter) { break }
                continue
            case .trimmed:
                Issue.record("a gap after position \(position): a change became visible before an earlier one")
            case .failed(let reason):
                Issue.record("read failed: \(reason)")
            }
            break
        }
        #expect(problems.withLock { $0 }.isEmpty)
        #expect(seen == Array(1...UInt64(writers.count * perWriter)))
        let connection = try PostgresConnection(server.connectionString)
        #expect(
            try connection.execute("SELECT count(*) FROM items_orders WHERE id >= 'o-000100'").firstValue == "\(writers.count * perWriter)")
    }

    @Test func aLogTrimmedPastAPosition_readsAsTrimmed() throws {
        let server = try TemporaryPostgres()
        let storage = Self.storage(server)
        _ = try storage.load()
        for round in 1...5 {
            #expect(storage.append([Self.change("o-000001", name: "Round \(round)")], decidedAt: UInt64(round - 1)) != .stale)
        }
        let connection = try PostgresConnection(server.connectionString)
        try connection.execute("DELETE FROM change_log WHERE position <= 3")
        guard case .trimmed = storage.changes(after: 1, limit: 10) else {
            Issue.record("a read past a trimmed position was not reported as trimmed")
            return
        }
        guard case .changes(let logged, 5) = storage.changes(after: 3, limit: 10) else {
            Issue.record("a read past the retained part failed")
            return
        }
        #expect(logged.map(\.position) == [4, 5])
    }

    /// A replica that fell behind the trimmed log loads everything again and ends equal to
    /// the replica that wrote; one within the log applies the changes instead.
    @Test func aReplicaBehindTheTrimmedLog_reloads_andEndsEqual() throws {
        let server = try TemporaryPostgres()
        let quiet = ServiceLog { _ in }
        let storageA = Self.storage(server), storageB = Self.storage(server)
        let a = try CollectionService.open(storage: storageA, log: quiet), b = try CollectionService.open(storage: storageB, log: quiet)
        storageA.stopWatching()
        storageB.stopWatching()
        usleep(1_300_000)  // the watchers' last waits end: B hears of nothing from now on
        let router = ServiceRoutes.makeHandler(service: a)
        for index in 1...5 {
            #expect(router.send(.patch, String(format: "/orders/o-%06d", index), json: #"{"customerName":"Name \#(index)"}"#).status == .ok)
        }
        #expect(router.send(.delete, "/orders/o-000010").status == .noContent)
        #expect(b.engine(Orders.self).state.item(id: "o-000001")?.customerName == "Customer 1", "B has not heard of the changes")
        let connection = try PostgresConnection(server.connectionString)
        try connection.execute("DELETE FROM change_log WHERE position <= 4")
        b.writes.catchUpSoon()
        let deadline = Date().addingTimeInterval(5)
        while b.writes.replication.position.load(ordering: .relaxed) < 6 && Date() < deadline { usleep(10_000) }
        #expect(b.writes.replication.reloads.load(ordering: .relaxed) == 1)
        #expect(
            b.engine(Orders.self).state.allItems.sorted { $0.id < $1.id } == a.engine(Orders.self).state.allItems.sorted { $0.id < $1.id })
        #expect(b.engine(Orders.self).state.item(id: "o-000010") == nil)
        // Within the log again: the next change is applied, not reloaded.
        #expect(router.send(.patch, "/orders/o-000002", json: #"{"customerName":"Later"}"#).status == .ok)
        b.writes.catchUpSoon()
        let again = Date().addingTimeInterval(5)
        while b.writes.replication.position.load(ordering: .relaxed) < 7 && Date() < again { usleep(10_000) }
        #expect(b.engine(Orders.self).state.item(id: "o-000002")?.customerName == "Later")
        #expect(b.writes.replication.reloads.load(ordering: .relaxed) == 1)
    }

    /// The watcher wakes its replica (on another replica's append, or when its wait runs out)
    /// from a thread the system knows by its name (`top -H`, `perf`).
    @Test func theWatcher_wakesItsReplica_fromItsNamedThread() throws {
        let server = try TemporaryPostgres()
        let a = Self.storage(server), b = Self.storage(server)
        _ = try a.load()
        _ = try b.load()
        let wakes = Locked<[String]>([])  // a pthread mutex: ThreadSanitizer sees its ordering (not Mutex's futex)
        b.watch { wakes.withLock { $0.append(ThreadName.current) } }
        defer { b.stopWatching() }
        #expect(a.append([Self.change("o-000001", name: "By A")], decidedAt: 0) == .appended(position: 1))
        let deadline = Date().addingTimeInterval(3)
        while wakes.withLock({ $0.isEmpty }) && Date() < deadline { usleep(5_000) }
        let names = wakes.withLock { $0 }
        #expect(!names.isEmpty && names.allSatisfy { $0 == PostgresWatcher.threadName }, "woken from \(names)")
    }
}
