import Foundation
import Glibc
import HTTPLite
import Basics
import Testing

@testable import ListService
@testable import ListServiceHTTP

@Suite struct DurabilityTests {
    private func writeJournal(_ path: String, _ payloads: [String]) throws {
        let journal = try Journal(path: path, length: 0)
        try journal.append(payloads.map { Journal.frame(Array($0.utf8)) })
    }

    @Test func journal_roundTripsRecords() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/a.journal"
            try writeJournal(path, ["one", "two", "three"])
            let contents = try JournalReader.read(path)
            #expect(contents.payloads.map { String(decoding: $0, as: UTF8.self) } == ["one", "two", "three"])
            #expect(contents.droppedTail == 0)
        }
    }

    @Test func missingOrEmptyJournal_readsAsNoRecords_andADirectoryIsRefused() throws {
        try withTemporaryDirectory { directory in
            let missing = try JournalReader.read(directory + "/none.journal")
            #expect(missing.payloads.isEmpty)
            #expect(FileManager.default.createFile(atPath: directory + "/empty.journal", contents: Data()))
            let empty = try JournalReader.read(directory + "/empty.journal")
            #expect(empty.validLength == 0 && empty.droppedTail == 0)
            #expect(throws: JournalCorruption.self) { try JournalReader.read(directory) }
        }
    }

    @Test(arguments: [1, 5, 12, 14])
    func tornTail_isDroppedNotFatal(cut: Int) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/a.journal"
            try writeJournal(path, ["first record", "second record"])
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(truncate(path, off_t(size - cut)) == 0)
            let contents = try JournalReader.read(path)
            #expect(contents.payloads.map { String(decoding: $0, as: UTF8.self) } == ["first record"])
            #expect(contents.droppedTail == 12 + 13 - cut)
        }
    }

    @Test func corruptionBeforeTheEnd_refusesToStart() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/a.journal"
            try writeJournal(path, ["first record", "second record", "third record"])
            var bytes = try #require(FileManager.default.contents(atPath: path))
            bytes[12 + 3] ^= 0xFF  // a payload byte of the first record: its checksum fails
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(throws: JournalCorruption.self) { try JournalReader.read(path) }
            do {
                _ = try JournalReader.read(path)
            } catch {
                #expect("\(error)".contains("corrupt record at byte 0"))
                #expect("\(error)".contains("refusing to start"))
            }
        }
    }

    private func storage(_ directory: String) -> StorageConfiguration {
        StorageConfiguration(dataDirectory: nil, stateDirectory: directory, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
    }

    private func open(_ directory: String) throws -> CollectionService {
        try CollectionService.open(storage(directory), log: .discarding, clock: { ISO8601.parse("2026-11-20T12:00:00Z")! })
    }

    @Test func acknowledgedWrites_surviveARestart_andCompaction() throws {
        try withTemporaryDirectory { directory in
            var service = try open(directory)
            var router = ServiceRoutes.makeHandler(service: service)
            let pending = try #require(service.engine(Orders.self).state.allItems.first { $0.status == .pending }).id
            #expect(router.send(.post, "/orders/\(pending)/cancel").status == .ok)
            #expect(router.send(.post, "/orders", json: Order.validCreateBody).status == .created)
            #expect(router.send(.delete, "/tasks/t-000001").status == .noContent)
            service = try open(directory)
            router = ServiceRoutes.makeHandler(service: service)
            #expect(service.engine(Orders.self).state.item(id: pending)?.status == .cancelled)
            #expect(service.engine(Orders.self).state.item(id: "o-010001")?.customerName == "Zoë Kim")
            #expect(service.engine(Tasks.self).state.item(id: "t-000001") == nil)
            // New ids continue after the highest, across restarts.
            #expect(router.send(.post, "/orders", json: Order.validCreateBody).headers["Location"] == "/orders/o-010002")
            service.writes.compactNow()
            let journalSize = try FileManager.default.attributesOfItem(atPath: directory + "/orders.journal")[.size] as? Int
            #expect(journalSize == 0, "the snapshot holds every record")
            service = try open(directory)
            #expect(service.engine(Orders.self).state.item(id: "o-010002") != nil)
            #expect(service.engine(Orders.self).state.item(id: pending)?.status == .cancelled)
        }
    }

    @Test func replayingRecordsASnapshotHolds_changesNothing() throws {
        try withTemporaryDirectory { directory in
            var service = try open(directory)
            let router = ServiceRoutes.makeHandler(service: service)
            _ = router.send(.patch, "/orders/o-000002", json: #"{"customerName":"Renamed Once"}"#)
            let journal = try #require(FileManager.default.contents(atPath: directory + "/orders.journal"))
            service.writes.compactNow()
            // A crash after the snapshot but before the journal trim leaves the records behind.
            try journal.write(to: URL(fileURLWithPath: directory + "/orders.journal"))
            service = try open(directory)
            #expect(service.engine(Orders.self).state.item(id: "o-000002")?.customerName == "Renamed Once")
            #expect(service.engine(Orders.self).state.count == 10_000)
        }
    }

    /// A compaction appends to `orders.journal.next` while it writes its snapshot; a stop before
    /// it renames that file over the journal leaves both, which start-up replays in order and joins.
    @Test func aCompactionStoppedMidway_leavesTwoJournals_thatStartUpJoins() throws {
        try withTemporaryDirectory { directory in
            let journalPath = directory + "/orders.journal"
            let service = try open(directory)
            let router = ServiceRoutes.makeHandler(service: service)
            _ = router.send(.patch, "/orders/o-000002", json: #"{"customerName":"First Name"}"#)
            let first = try #require(FileManager.default.contents(atPath: journalPath))
            _ = router.send(.patch, "/orders/o-000002", json: #"{"customerName":"Second Name"}"#)
            let both = try #require(FileManager.default.contents(atPath: journalPath))
            // The state a stop between the switch and the rename leaves, with a torn record at the end.
            try first.write(to: URL(fileURLWithPath: journalPath))
            try (both.dropFirst(first.count) + Data("LSJ1\u{5}".utf8)).write(to: URL(fileURLWithPath: journalPath + ".next"))
            let reopened = try open(directory)
            #expect(reopened.engine(Orders.self).state.item(id: "o-000002")?.customerName == "Second Name")
            #expect(!FileManager.default.fileExists(atPath: journalPath + ".next"))
            #expect(FileManager.default.contents(atPath: journalPath) == both, "one journal again, the torn record left out")
            // And writes after the join append to it.
            #expect(ServiceRoutes.makeHandler(service: reopened).send(.post, "/orders/o-000003/cancel").status != .internalServerError)
            #expect(try open(directory).engine(Orders.self).state.item(id: "o-000002")?.customerName == "Second Name")
        }
    }

    /// A snapshot reads the items a few at a time (so a write waits for one chunk at most),
    /// in slot order, without the deleted ones.
    @Test func aSnapshotReadsTheItemsInChunks_inSlotOrder_withoutDeletedOnes() {
        let orders = DefaultOrders.make(count: 10, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
        let state = CollectionState<Orders>(items: orders)
        _ = state.apply([.delete(id: orders[4].id)])
        for chunkSize in [1, 3, 10, 64] {
            var ids: [String] = []
            state.forEachItemInChunks(of: chunkSize) { ids.append($0.id) }
            #expect(ids == orders.map(\.id).filter { $0 != orders[4].id })
        }
    }

    @Test func backgroundCompaction_keepsUpWithAStreamOfWrites() throws {
        try withTemporaryDirectory { directory in
            var configuration = storage(directory)
            configuration.compactAfterBytes = 4096
            let service = try CollectionService.open(configuration, log: .discarding, clock: { ISO8601.parse("2026-11-20T12:00:00Z")! })
            let router = ServiceRoutes.makeHandler(service: service)
            for index in 1...200 {
                #expect(
                    router.send(.patch, "/orders/o-\(String(format: "%06d", index))", json: #"{"customerName":"Renamed \#(index)"}"#).status
                        == .ok)
            }
            // Compactions ran in the background meanwhile; wait for the last one and its trim.
            service.writes.finishBackgroundWork()
            let journalSize = try FileManager.default.attributesOfItem(atPath: directory + "/orders.journal")[.size] as? Int
            #expect((journalSize ?? .max) <= 8192, "the journal was trimmed while writes kept coming")
            let reopened = try open(directory)
            for index in [1, 100, 200] {
                #expect(
                    reopened.engine(Orders.self).state.item(id: "o-\(String(format: "%06d", index))")?.customerName == "Renamed \(index)")
            }
        }
    }

    @Test func corruptJournal_stopsStartupWithAClearLine() throws {
        try withTemporaryDirectory { directory in
            let service = try open(directory)
            let router = ServiceRoutes.makeHandler(service: service)
            for _ in 0..<3 { _ = router.send(.post, "/orders/o-000003/complete") }
            _ = router.send(.patch, "/orders/o-000003", json: #"{"customerName":"A B"}"#)
            _ = router.send(.patch, "/orders/o-000004", json: #"{"customerName":"C D"}"#)
            var bytes = try #require(FileManager.default.contents(atPath: directory + "/orders.journal"))
            bytes[20] ^= 0x55
            try bytes.write(to: URL(fileURLWithPath: directory + "/orders.journal"))
            #expect(throws: StartupError.self) { try open(directory) }
        }
    }

    // MARK: ids are never given twice

    @Test func deletedIDs_areNotGivenAgain_afterARestart() throws {
        try withTemporaryDirectory { directory in
            var router = ServiceRoutes.makeHandler(service: try open(directory))
            let task = #"{"title":"Call back","dueDate":"2026-11-30T10:00:00Z"}"#
            #expect(router.send(.post, "/tasks", json: task).headers["Location"] == "/tasks/t-002001")
            #expect(router.send(.post, "/tasks", json: task).headers["Location"] == "/tasks/t-002002")
            #expect(router.send(.delete, "/tasks/t-002002").status == .noContent)
            #expect(router.send(.delete, "/tasks/t-002001").status == .noContent)
            router = ServiceRoutes.makeHandler(service: try open(directory))
            #expect(router.send(.post, "/tasks", json: task).headers["Location"] == "/tasks/t-002003")
        }
    }

    @Test func deletedIDs_areNotGivenAgain_afterCompaction() throws {
        try withTemporaryDirectory { directory in
            let service = try open(directory)
            let router = ServiceRoutes.makeHandler(service: service)
            #expect(router.send(.post, "/orders", json: Order.validCreateBody).headers["Location"] == "/orders/o-010001")
            #expect(router.send(.delete, "/orders/o-010001").status == .noContent)
            service.writes.compactNow()  // the journal no longer holds the deleted id
            let reopened = ServiceRoutes.makeHandler(service: try open(directory))
            #expect(reopened.send(.post, "/orders", json: Order.validCreateBody).headers["Location"] == "/orders/o-010002")
        }
    }

    @Test func refusedCreate_usesUpNoID() throws {
        let router = ServiceRoutes.makeHandler(service: makeService(orders: [.make(id: "o-000007")]))
        #expect(router.send(.post, "/orders", json: #"{"customerName":""}"#).status == .unprocessableContent)
        #expect(router.send(.post, "/orders", json: Order.validCreateBody).headers["Location"] == "/orders/o-000008")
    }

    // MARK: storage that cannot be written

    @Test func stateDirectoryThatIsAFile_stopsStartup() throws {
        try withTemporaryDirectory { directory in
            let file = directory + "/not-a-directory"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
            #expect(throws: StartupError.self) { try open(file) }
        }
    }

    @Test func journalThatCannotBeOpened_stopsStartup() throws {
        try withTemporaryDirectory { directory in
            _ = try open(directory)  // writes the first snapshots
            try FileManager.default.removeItem(atPath: directory + "/tasks.journal")
            try FileManager.default.createDirectory(atPath: directory + "/tasks.journal", withIntermediateDirectories: false)
            do {
                _ = try open(directory)
                Issue.record("start-up went on with a journal it cannot write")
            } catch {
                #expect("\(error)".contains("tasks.journal"))
            }
        }
    }

    @Test func failedAppend_rollsBackWhatTheBatchWroteToOtherJournals() throws {
        try withTemporaryDirectory { directory in
            let good = try Journal(path: directory + "/orders.journal", length: 0)
            try good.append([Journal.frame(Array("before".utf8))])
            let lengthBefore = good.length
            let full = try Journal(path: "/dev/full", length: 0)  // every write fails with ENOSPC
            let storage = JournalStorage(
                files: [
                    CollectionFiles(
                        name: "a", snapshotPath: directory + "/a.snapshot", sequencePath: directory + "/a.sequence",
                        answersPath: directory + "/a.answers", journal: good,
                        takeSnapshot: { { _ in } }),
                    CollectionFiles(
                        name: "b", snapshotPath: directory + "/b.snapshot", sequencePath: directory + "/b.sequence",
                        answersPath: directory + "/b.answers", journal: full,
                        takeSnapshot: { { _ in } }),
                ], log: ServiceLog { _ in })
            let first = StoredChange(collection: "a", id: "x", record: nil), second = StoredChange(collection: "b", id: "x", record: nil)
            guard case .failed(let source, _, false) = storage.append([first, second], decidedAt: 0) else {
                Issue.record("a batch whose journal cannot be written was acknowledged")
                return
            }
            #expect(source == "b")
            #expect(good.length == lengthBefore)
            #expect(try JournalReader.read(directory + "/orders.journal").payloads == [Array("before".utf8)])
            #expect(storage.append([first], decidedAt: 0) == .appended(position: 0))
            #expect(try JournalReader.read(directory + "/orders.journal").payloads.count == 2)
        }
    }

    @Test func storageThatFails_refusesWritesWith503_reportsOnce_andRecovers() throws {
        let lines = Locked<[String]>([])
        let storage = SwitchableStorage(stores: [CollectionState<Orders>(items: [.make(id: "o-000001")])])
        let service = try CollectionService.open(storage: storage, log: ServiceLog { line in lines.withLock { $0.append(line) } })
        let router = ServiceRoutes.makeHandler(service: service)
        storage.failure.withLock { $0 = "disk full" }
        for _ in 0..<2 {
            let refused = router.send(.post, "/orders", json: Order.validCreateBody)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers["Retry-After"] != nil)
        }
        #expect(service.engine(Orders.self).state.count == 1)
        #expect(service.writes.health.failingCollections.map(\.name) == ["orders"])
        #expect(lines.withLock { $0.filter { $0.contains("event=journal-write-failed") }.count } == 1)  // logged once, not per write
        storage.failure.withLock { $0 = nil }
        #expect(router.send(.post, "/orders", json: Order.validCreateBody).status == .created)
        #expect(service.engine(Orders.self).state.count == 2)
        #expect(service.writes.health.failingCollections.isEmpty)
        #expect(storage.appended.withLock { $0.map(\.collection) } == ["orders"])
    }
}

/// Storage in memory whose appends fail while `failure` holds a reason.
private final class SwitchableStorage: ChangeStorage {
    let stores: [any AnyCollectionStore]
    let failure = Locked<String?>(nil)
    let appended = Locked<[StoredChange]>([])
    let status = ReplicationStatus()

    init(stores: [any AnyCollectionStore]) { self.stores = stores }

    func load() throws(StartupError) -> LoadedCollections {
        LoadedCollections(stores: stores, position: 0, sequences: [:], reports: [])
    }

    func append(_ changes: [StoredChange], decidedAt position: UInt64) -> AppendOutcome {
        if let reason = failure.withLock({ $0 }) { return .failed(source: changes[0].collection, reason: reason) }
        appended.withLock { $0 += changes }
        return .appended(position: 0)
    }

    func changes(after position: UInt64, limit: Int) -> ChangesSince { .changes([], head: position) }
}
