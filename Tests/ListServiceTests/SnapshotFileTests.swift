import Basics
import Foundation
import Testing

@testable import ListService

@Suite struct SnapshotFileTests {
    private let anchor = ISO8601.parse("2026-11-20T00:00:00Z")!

    private func encode<C: ListCollection>(_ items: [C.Item], as collection: C.Type) -> [UInt8] {
        var bytes: [UInt8] = []
        SnapshotFile.write(as: C.self, eachItem: { items.forEach($0) }) { bytes += $0 }
        return bytes
    }

    private func decode<C: ListCollection>(_ bytes: [UInt8], as collection: C.Type) throws -> [C.Item] {
        try bytes.withUnsafeBytes { bytes in try SnapshotFile.decode(bytes, as: C.self) }
    }

    private func failure<C: ListCollection>(_ bytes: [UInt8], as collection: C.Type) -> String? {
        do {
            _ = try decode(bytes, as: C.self)
            return nil
        } catch {
            return (error as? SnapshotError)?.reason
        }
    }

    @Test func everyCollection_roundTripsExactly() throws {
        var orders = DefaultOrders.make(count: 500, anchor: anchor)
        orders[3].date = Date(timeIntervalSince1970: 1_790_000_000.123_456)  // below a millisecond survives
        orders[4].shippingAddress.street = "Straße 7 — 東京 🚚"
        orders[5].total = Money(cents: -1)  // not a valid order, but what is stored is what is read
        #expect(try decode(encode(orders, as: Orders.self), as: Orders.self) == orders)
        let tasks = DefaultTasks.make(count: 200, anchor: anchor)
        #expect(try decode(encode(tasks, as: Tasks.self), as: Tasks.self) == tasks)
        let quakes = DefaultQuakes.make(count: 200, anchor: anchor)
        #expect(try decode(encode(quakes, as: Quakes.self), as: Quakes.self) == quakes)
        let users = DefaultUsers.make(count: 50)
        #expect(try decode(encode(users, as: Users.self), as: Users.self) == users)
        #expect(try decode(encode([], as: Orders.self), as: Orders.self).isEmpty)
    }

    @Test func repeatedText_isStoredOnce() {
        let orders = DefaultOrders.make(count: 2000, anchor: anchor)
        let binary = encode(orders, as: Orders.self)
        #expect(binary.count * 4 < Orders.encodeDataFile(orders).count, "\(binary.count) bytes")
        let names = Set(orders.map(\.customerName))
        let occurrences = binary.indices.dropLast(4).filter { binary[$0...].starts(with: Array("Leah Appleseed".utf8)) }.count
        #expect(names.contains("Leah Appleseed") && occurrences == 1)
    }

    /// The bytes of one order. If this fails, the snapshot format changed: bump
    /// `SnapshotFile.formatVersion` (and read the older format as it was) and update.
    @Test func oneOrdersBytes_areTheFormatOfThisVersion() throws {
        let order = Order(
            id: "o-1", title: "T", customerName: "Ann", currency: .named("EUR"), total: Money(cents: 250),
            date: Date(timeIntervalSince1970: 0),
            status: .pending, items: [OrderItem(name: "Pen", quantity: 2, unitPrice: Money(cents: 125), requiresSignature: true)],
            shippingAddress: ShippingAddress(street: "S", city: "C", postalCode: "1", country: "DE", isResidential: false),
            customer: OwnerID("c-7"))
        let bytes = encode([order], as: Orders.self)
        let hex = bytes.map { String(zeroPadded: UInt32($0), width: 2, radix: 16) }.joined()
        #expect(SnapshotFile.formatVersion == 3)
        let expected = [
            "4c53534e4150000a", "03000000",  // magic, version
            "066f7264657273",  // "orders"
            "036f2d31", "0154", "00", "01", "f403", "0000000000000000", "02",  // id, title, customer, currency, total, date, status
            "01", "03", "04", "fa01", "01",  // one item: name, quantity, unit price, signature
            "04", "05", "0131", "06", "00",  // street, city, postal code, country, residential
            "07",  // the customer's account
            "01",  // the trailer: one item,
            "08", "03416e6e", "03455552", "0770656e64696e67", "0350656e", "0153", "0143", "024445", "03632d37",  // the shared text,
            "20",  // the items' 32 bytes
            "3300000000000000",  // where the trailer starts
            "8e41897d",  // CRC-32
        ]
        #expect(hex == expected.joined())
        #expect(try decode(bytes, as: Orders.self) == [order])
    }

    /// A snapshot of version 2 (the table before the items) is still read.
    @Test func aVersionTwoSnapshot_reads() throws {
        let hex =
            "4c53534e4150000a02000000066f726465727301" + "0803416e6e034555520770656e64696e670350656e0153014302444503632d37"
            + "20036f2d3101540001f403000000000000000002010304fa0101040501310600" + "07" + "8b1bc276"
        let bytes = stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(hex.dropFirst($0).prefix(2), radix: 16) }
        let orders = try decode(bytes, as: Orders.self)
        #expect(orders.map(\.id) == ["o-1"] && orders.first?.customer == OwnerID("c-7") && orders.first?.customerName == "Ann")
    }

    /// A snapshot is handed on a piece at a time as it is encoded, never whole, and its pieces
    /// joined read back as the items.
    @Test func aSnapshotIsWrittenInPieces_neverWhole() throws {
        let orders = DefaultOrders.make(count: 40_000, anchor: anchor)
        var pieces: [Int] = []
        var joined: [UInt8] = []
        SnapshotFile.write(as: Orders.self, eachItem: { orders.forEach($0) }) { piece in
            pieces.append(piece.count)
            joined += piece
        }
        #expect(joined.count > 2 * SnapshotFile.pieceBytes && pieces.count > 3, "\(joined.count) bytes in \(pieces.count) pieces")
        #expect(pieces.max() ?? 0 < SnapshotFile.pieceBytes + 4096, "\(pieces)")
        #expect(try decode(joined, as: Orders.self) == orders)
    }

    /// A snapshot of the format before owners (version 1) is still read: its orders have no customer.
    @Test func aVersionOneSnapshot_readsWithoutOwners() throws {
        let hex =
            "4c53534e4150000a01000000066f7264657273010703416e6e034555520770656e64696e670350656e01530143024445"
            + "1f036f2d3101540001f403000000000000000002010304fa0101040501310600393c33ba"
        let bytes = stride(from: 0, to: hex.count, by: 2).compactMap {
            UInt8(hex.dropFirst($0).prefix(2), radix: 16)
        }
        let orders = try decode(bytes, as: Orders.self)
        #expect(orders.map(\.id) == ["o-1"] && orders.first?.customer == OwnerID.none && orders.first?.customerName == "Ann")
    }

    @Test func damage_isNamed_neverMisread() throws {
        let good = encode(DefaultOrders.make(count: 50, anchor: anchor), as: Orders.self)
        var flipped = good
        flipped[good.count / 2] ^= 0x01
        #expect(failure(flipped, as: Orders.self) == "fails its checksum: the file is damaged")
        #expect(failure(Array(good.dropLast(1)), as: Orders.self) == "fails its checksum: the file is damaged")
        var newer = good
        newer[SnapshotFile.magic.count] = 9
        #expect(failure(newer, as: Orders.self) == "is in snapshot format 9; this build reads formats 1 to 3 only")
        #expect(failure(Array("[]".utf8), as: Orders.self) == "is not a ListService snapshot")
        #expect(failure([], as: Orders.self) == "is not a ListService snapshot")
        #expect(failure(good, as: Tasks.self)?.contains("holds orders, not tasks") == true)
    }

    @Test func readerBounds_throwInsteadOfReadingPastTheEnd() {
        [UInt8]([0x85]).withUnsafeBytes { bytes in
            var reader = SnapshotReader(bytes, table: [])
            #expect(throws: SnapshotFormatError.self) { try reader.unsigned() }
        }
        [UInt8]([0x0A, 0x41]).withUnsafeBytes { bytes in
            var reader = SnapshotReader(bytes, table: [])
            #expect(throws: SnapshotFormatError.self) { try reader.text() }
        }
        [UInt8]([0x03, 0x02]).withUnsafeBytes { bytes in
            var reader = SnapshotReader(bytes, table: ["a"])
            #expect(throws: SnapshotFormatError.self) { try reader.sharedText() }
            #expect(throws: SnapshotFormatError.self) { try reader.bool() }
        }
    }

    @Test(arguments: [Int64.min, -1, 0, 1, 63, 64, 1 << 40, Int64.max])
    func integers_roundTrip(value: Int64) throws {
        var writer = SnapshotWriter(reservingCapacity: 16)
        writer.int(value)
        let (read, isAtEnd) = try writer.body.withUnsafeBytes { bytes throws -> (Int64, Bool) in
            var reader = SnapshotReader(bytes, table: [])
            return (try reader.int64(), reader.isAtEnd)
        }
        #expect(read == value && isAtEnd)
    }

    // MARK: in the state directory

    private func open(data: String?, state: String) throws -> CollectionService {
        try CollectionService.open(
            StorageConfiguration(dataDirectory: data, stateDirectory: state, anchor: anchor), log: .discarding,
            clock: { ISO8601.parse("2026-11-20T12:00:00Z")! })
    }

    @Test func aFirstLoadFromJSON_writesTheSnapshotInTheBackground_andARestartReadsIt() throws {
        try withTemporaryDirectory { data in
            try withTemporaryDirectory { state in
                let orders = DefaultOrders.make(count: 300, anchor: anchor)
                try writeDataFiles(orders: orders, to: data)
                let first = try open(data: data, state: state)
                first.writes.finishBackgroundWork()
                #expect(FileManager.default.fileExists(atPath: state + "/orders.snapshot"))
                #expect(!FileManager.default.fileExists(atPath: state + "/orders.json"), "no JSON copy is kept")
                try FileManager.default.removeItem(atPath: data + "/orders.json")  // the restart must not need it
                let lines = Locked<[String]>([])
                let again = try CollectionService.open(
                    StorageConfiguration(dataDirectory: data, stateDirectory: state, anchor: anchor),
                    log: ServiceLog { line in lines.withLock { $0.append(line) } })
                #expect(again.engine(Orders.self).state.allItems == orders)
                #expect(lines.withLock { $0 }.contains { $0.contains("orders=300 source=\(LogFmt.value(state + "/orders.snapshot"))") })
            }
        }
    }

    @Test func writesBeforeTheFirstSnapshot_surviveARestart() throws {
        try withTemporaryDirectory { data in
            try withTemporaryDirectory { state in
                try writeDataFiles(orders: DefaultOrders.make(count: 30, anchor: anchor), to: data)
                var service = try open(data: data, state: state)
                service.writes.finishBackgroundWork()
                try FileManager.default.removeItem(atPath: state + "/orders.snapshot")  // as if stopped before it was written
                service = try open(data: data, state: state)
                let id = "o-000003"
                var changed = try #require(service.engine(Orders.self).state.item(id: id))
                changed.customerName = "Written Meanwhile"
                let change = ItemChange<Order>.upsert(changed)
                let written = Locked(false)
                service.writes.submit { batch in
                    batch.record(Orders.self, change)
                    batch.onCommit { result in written.withLock { $0 = (try? result.get()) != nil } }
                }
                service.writes.finishBackgroundWork()
                service.writes.compactNow()  // nothing is lost whichever way the snapshot and the journal interleave
                #expect(written.withLock { $0 })
                service = try open(data: data, state: state)
                #expect(service.engine(Orders.self).state.item(id: id)?.customerName == "Written Meanwhile")
            }
        }
    }

    @Test func aStateKeptInJSONByAnEarlierBuild_isLoaded_thenKeptInBinary() throws {
        try withTemporaryDirectory { state in
            let orders = DefaultOrders.make(count: 40, anchor: anchor)
            try writeDataFiles(orders: orders, to: state)
            try Data("40\n".utf8).write(to: URL(fileURLWithPath: state + "/orders.sequence"))
            let service = try open(data: nil, state: state)
            #expect(service.engine(Orders.self).state.allItems == orders)
            service.writes.finishBackgroundWork()
            let snapshot = try #require(FileManager.default.contents(atPath: state + "/orders.snapshot"))
            #expect(try decode(Array(snapshot), as: Orders.self) == orders)
        }
    }

    @Test func aDamagedSnapshot_stopsStartup_sayingWhatToDo() throws {
        try withTemporaryDirectory { state in
            _ = try open(data: nil, state: state)
            let path = state + "/orders.snapshot"
            var bytes = try #require(FileManager.default.contents(atPath: path))
            bytes[bytes.count - 10] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: path))
            do {
                _ = try open(data: nil, state: state)
                Issue.record("started on a damaged snapshot")
            } catch {
                #expect("\(error)".hasPrefix("\(path) fails its checksum: the file is damaged; refusing to start"))
            }
        }
    }
}
