import Foundation
import Glibc
import HTTPLite
import Testing

@testable import ListService

@Suite struct DurabilityTests {
    private func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "listservice-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func writeJournal(_ path: String, _ payloads: [String]) throws {
        let journal = try Journal(path: path, length: 0)
        try journal.append(payloads.map { Journal.frame(Array($0.utf8)) })
    }

    @Test func journal_roundTripsRecords() throws {
        let path = temporaryDirectory() + "/a.journal"
        try writeJournal(path, ["one", "two", "three"])
        let contents = try JournalReader.read(path)
        #expect(contents.payloads.map { String(decoding: $0, as: UTF8.self) } == ["one", "two", "three"])
        #expect(contents.droppedTail == 0)
    }

    @Test(arguments: [1, 5, 12, 14])
    func tornTail_isDroppedNotFatal(cut: Int) throws {
        let path = temporaryDirectory() + "/a.journal"
        try writeJournal(path, ["first record", "second record"])
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - cut)) == 0)
        let contents = try JournalReader.read(path)
        #expect(contents.payloads.map { String(decoding: $0, as: UTF8.self) } == ["first record"])
        #expect(contents.droppedTail == 12 + 13 - cut)
    }

    @Test func corruptionBeforeTheEnd_refusesToStart() throws {
        let path = temporaryDirectory() + "/a.journal"
        try writeJournal(path, ["first record", "second record", "third record"])
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[12 + 3] ^= 0xFF  // a payload byte of the first record: its checksum fails
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: JournalCorruption.self) { try JournalReader.read(path) }
        do {
            _ = try JournalReader.read(path)
        } catch {
            #expect(error.description.contains("corrupt record at byte 0"))
            #expect(error.description.contains("refusing to start"))
        }
    }

    private func storage(_ directory: String) -> StorageConfiguration {
        StorageConfiguration(dataDirectory: nil, stateDirectory: directory, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
    }

    private func open(_ directory: String) throws -> ListService {
        try ListService.open(storage(directory), clock: { ISO8601.parse("2026-11-20T12:00:00Z")! })
    }

    @Test func acknowledgedWrites_surviveARestart_andCompaction() throws {
        let directory = temporaryDirectory()
        var service = try open(directory)
        var router = ServiceRoutes.makeRouter(service: service)
        let pending = try #require(service.engine(Orders.self).state.allItems.first { $0.status == .pending }).id
        #expect(router.send(.post, "/orders/\(pending)/cancel").status == .ok)
        #expect(router.send(.post, "/orders", json: WriteAPITests.validOrder).status == .created)
        #expect(router.send(.delete, "/tasks/t-000001").status == .noContent)
        service = try open(directory)
        router = ServiceRoutes.makeRouter(service: service)
        #expect(service.engine(Orders.self).state.item(id: pending)?.status == .cancelled)
        #expect(service.engine(Orders.self).state.item(id: "o-010001")?.customerName == "Zoë Kim")
        #expect(service.engine(Tasks.self).state.item(id: "t-000001") == nil)
        // New ids continue after the highest, across restarts.
        #expect(router.send(.post, "/orders", json: WriteAPITests.validOrder).headers["Location"] == "/orders/o-010002")
        service.writes.compactNow()
        let journalSize = try FileManager.default.attributesOfItem(atPath: directory + "/orders.journal")[.size] as? Int
        #expect(journalSize == 0, "the snapshot holds every record")
        service = try open(directory)
        #expect(service.engine(Orders.self).state.item(id: "o-010002") != nil)
        #expect(service.engine(Orders.self).state.item(id: pending)?.status == .cancelled)
    }

    @Test func replayingRecordsASnapshotHolds_changesNothing() throws {
        let directory = temporaryDirectory()
        var service = try open(directory)
        let router = ServiceRoutes.makeRouter(service: service)
        _ = router.send(.patch, "/orders/o-000002", json: #"{"customerName":"Renamed Once"}"#)
        let journal = try #require(FileManager.default.contents(atPath: directory + "/orders.journal"))
        service.writes.compactNow()
        // A crash after the snapshot but before the journal trim leaves the records behind.
        try journal.write(to: URL(fileURLWithPath: directory + "/orders.journal"))
        service = try open(directory)
        #expect(service.engine(Orders.self).state.item(id: "o-000002")?.customerName == "Renamed Once")
        #expect(service.engine(Orders.self).state.count == 10_000)
    }

    @Test func backgroundCompaction_keepsUpWithAStreamOfWrites() throws {
        let directory = temporaryDirectory()
        var configuration = storage(directory)
        configuration.compactAfterBytes = 4096
        let service = try ListService.open(configuration, clock: { ISO8601.parse("2026-11-20T12:00:00Z")! })
        let router = ServiceRoutes.makeRouter(service: service)
        for index in 1...200 {
            #expect(router.send(.patch, "/orders/o-\(String(format: "%06d", index))", json: #"{"customerName":"Renamed \#(index)"}"#).status == .ok)
        }
        // Compactions ran in the background meanwhile; let the last one finish.
        var journalSize = Int.max
        for _ in 0..<50 where journalSize > 8192 {
            usleep(100_000)
            journalSize = (try? FileManager.default.attributesOfItem(atPath: directory + "/orders.journal")[.size] as? Int) ?? Int.max
        }
        #expect(journalSize <= 8192, "the journal was trimmed while writes kept coming")
        let reopened = try open(directory)
        for index in [1, 100, 200] {
            #expect(reopened.engine(Orders.self).state.item(id: "o-\(String(format: "%06d", index))")?.customerName == "Renamed \(index)")
        }
    }

    @Test func corruptJournal_stopsStartupWithAClearLine() throws {
        let directory = temporaryDirectory()
        let service = try open(directory)
        let router = ServiceRoutes.makeRouter(service: service)
        for _ in 0..<3 { _ = router.send(.post, "/orders/o-000003/complete") }
        _ = router.send(.patch, "/orders/o-000003", json: #"{"customerName":"A B"}"#)
        _ = router.send(.patch, "/orders/o-000004", json: #"{"customerName":"C D"}"#)
        var bytes = try #require(FileManager.default.contents(atPath: directory + "/orders.journal"))
        bytes[20] ^= 0x55
        try bytes.write(to: URL(fileURLWithPath: directory + "/orders.journal"))
        #expect(throws: StartupError.self) { try open(directory) }
    }
}
