import Foundation

/// A collection's items in the state directory, in binary: what a restart loads instead of
/// parsing JSON. Layout (version 3): the magic `LSSNAP\0\n`, the format version (4 bytes,
/// little-endian), then varints and text as `SnapshotWriter` writes them: the collection's
/// name, the items' bytes, then the trailer: the item count, the table of shared strings and
/// the items' byte count; then where the trailer starts (8 bytes, little-endian) and the CRC-32
/// of everything before it (4 bytes). The table follows the items so that a snapshot is written
/// as it is encoded, a piece at a time, never whole (61 MB at a million orders). Versions 1 and
/// 2 had the count, the table and the items' length before the items. The JSON data files stay
/// the interchange format.
package enum SnapshotFile {
    static let magic = Array("LSSNAP\0\n".utf8)
    /// Bump whenever the layout or any collection's `writeSnapshotItem` changes. A build reads
    /// the formats from `oldestReadableVersion` on (version 2 added owners to orders and tasks;
    /// a version 1 snapshot's items have none; version 3 put the table after the items); any
    /// other it names and refuses to start.
    static let formatVersion: UInt32 = 3
    static let oldestReadableVersion: UInt32 = 1
    /// The bytes encoded before they are handed on.
    static let pieceBytes = 1 << 20

    /// The snapshot's name in the state directory: `orders.snapshot`.
    static func fileName<C: ListCollection>(_ collection: C.Type) -> String { "\(C.name).snapshot" }

    /// Replaces the snapshot at `path` with one of `items`, written as it is encoded.
    static func replace<C: ListCollection>(_ path: String, with items: [C.Item], as collection: C.Type) throws(DurableFile.Failure) {
        try DurableFile.replace(path) { write in Self.write(as: C.self, eachItem: { items.forEach($0) }, to: write) }
    }

    /// Encodes the items `eachItem` hands to its argument as a snapshot, handing the bytes to
    /// `emit` about `pieceBytes` at a time as they are made: neither the items nor their bytes
    /// are ever held whole for it.
    static func write<C: ListCollection>(as collection: C.Type, eachItem: ((C.Item) -> Void) -> Void, to emit: ([UInt8]) -> Void) {
        // Neither closure is kept: `emit` is called only while `eachItem` runs, and not after.
        withoutActuallyEscaping(emit) { emit in write(as: C.self, eachItem: eachItem, emitting: emit) }
    }

    private static func write<C: ListCollection>(
        as collection: C.Type, eachItem: ((C.Item) -> Void) -> Void, emitting emit: @escaping ([UInt8]) -> Void
    ) {
        var checksum: UInt32 = 0
        var written = 0
        func hand(_ bytes: [UInt8]) {
            checksum = CRC32.checksum(bytes, continuing: checksum)
            written += bytes.count
            emit(bytes)
        }
        var head = SnapshotWriter(reservingCapacity: 64)
        head.text(C.name)
        var prefix = magic
        withUnsafeBytes(of: formatVersion.littleEndian) { prefix.append(contentsOf: $0) }
        hand(prefix + head.body)
        var content = SnapshotWriter(reservingCapacity: pieceBytes + pieceBytes / 8)
        var count = 0, itemBytes = 0
        eachItem { item in
            C.writeSnapshotItem(item, to: &content)
            count += 1
            if content.body.count >= pieceBytes {
                itemBytes += content.body.count
                hand(content.takeBody())
            }
        }
        itemBytes += content.body.count
        hand(content.takeBody())
        let trailerStart = written
        var trailer = SnapshotWriter(reservingCapacity: 1024)
        trailer.unsigned(UInt64(count))
        trailer.unsigned(UInt64(content.table.count))
        for text in content.table { trailer.text(text) }
        trailer.unsigned(UInt64(itemBytes))
        hand(trailer.body + withUnsafeBytes(of: UInt64(trailerStart).littleEndian, Array.init))
        emit(withUnsafeBytes(of: checksum.littleEndian, Array.init))
    }

    /// Reads a snapshot of `C`, checking the magic, the version, the checksum and that every
    /// byte reads as items; each failure is one line naming the file and what is wrong.
    static func decode<C: ListCollection>(_ bytes: UnsafeRawBufferPointer, as collection: C.Type) throws(SnapshotError) -> [C.Item] {
        let fixed = magic.count + 4
        guard bytes.count >= fixed + 4, bytes.prefix(magic.count).elementsEqual(magic) else {
            throw SnapshotError(reason: "is not a ListService snapshot")
        }
        let version = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: magic.count, as: UInt32.self))
        guard (oldestReadableVersion...formatVersion).contains(version) else {
            throw SnapshotError(
                reason: "is in snapshot format \(version); this build reads formats \(oldestReadableVersion) to \(formatVersion) only")
        }
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self))
        guard CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 4)])) == stored else {
            throw SnapshotError(reason: "fails its checksum: the file is damaged")
        }
        do throws(SnapshotFormatError) {
            let parts = version >= 3 ? try trailedParts(of: bytes) : try headedParts(of: bytes)
            guard parts.name == C.name else { throw SnapshotFormatError(offset: 0, reason: "holds \(parts.name), not \(C.name)") }
            guard parts.count <= UInt64(parts.body.count) else { throw SnapshotFormatError(offset: 0, reason: "more items than bytes") }
            var reader = SnapshotReader(parts.body, table: parts.table, formatVersion: version)
            var items: [C.Item] = []
            items.reserveCapacity(Int(parts.count))
            let readItem = C.makeSnapshotItemReader()
            for _ in 0..<parts.count { items.append(try readItem(&reader)) }
            guard reader.isAtEnd else { throw SnapshotFormatError(offset: 0, reason: "bytes follow the last item") }
            return items
        } catch {
            throw SnapshotError(reason: "cannot be read: \(error)")
        }
    }

    /// A snapshot's collection name, item count, shared strings and items' bytes.
    private typealias Parts = (name: String, count: UInt64, table: [String], body: UnsafeRawBufferPointer)

    /// The parts of a version 3 snapshot: the name, the items, then the trailer.
    private static func trailedParts(of bytes: UnsafeRawBufferPointer) throws(SnapshotFormatError) -> Parts {
        let fixed = magic.count + 4, end = bytes.count - 12
        guard end >= fixed else { throw SnapshotFormatError(offset: 0, reason: "too short for its trailer") }
        let trailerStart = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self))
        guard trailerStart >= UInt64(fixed), trailerStart <= UInt64(end) else {
            throw SnapshotFormatError(offset: end, reason: "its trailer is out of place")
        }
        var head = SnapshotReader(UnsafeRawBufferPointer(rebasing: bytes[fixed..<Int(trailerStart)]), table: [])
        let name = try head.text()
        var trailer = SnapshotReader(UnsafeRawBufferPointer(rebasing: bytes[Int(trailerStart)..<end]), table: [])
        let count = try trailer.unsigned()
        let table = try readTable(&trailer, within: bytes.count)
        let itemBytes = try trailer.unsigned()
        guard trailer.isAtEnd else { throw SnapshotFormatError(offset: 0, reason: "bytes follow the trailer") }
        let bodyStart = fixed + head.bytesRead
        guard UInt64(bodyStart) + itemBytes == trailerStart else {
            throw SnapshotFormatError(offset: bodyStart, reason: "the items' length does not match their bytes")
        }
        return (name, count, table, UnsafeRawBufferPointer(rebasing: bytes[bodyStart..<Int(trailerStart)]))
    }

    /// The parts of a version 1 or 2 snapshot: the name, count, table and items' length first.
    private static func headedParts(of bytes: UnsafeRawBufferPointer) throws(SnapshotFormatError) -> Parts {
        var header = SnapshotReader(UnsafeRawBufferPointer(rebasing: bytes[(magic.count + 4)..<(bytes.count - 4)]), table: [])
        let name = try header.text()
        let count = try header.unsigned()
        let table = try readTable(&header, within: bytes.count)
        let body = try header.data()
        guard header.isAtEnd else { throw SnapshotFormatError(offset: 0, reason: "bytes follow the items") }
        return (name, count, table, body)
    }

    /// The table of shared strings: its count, then each.
    private static func readTable(_ reader: inout SnapshotReader, within fileBytes: Int) throws(SnapshotFormatError) -> [String] {
        let tableCount = try reader.unsigned()
        guard tableCount <= UInt64(fileBytes) else { throw SnapshotFormatError(offset: 0, reason: "too many shared strings") }
        var table: [String] = []
        table.reserveCapacity(Int(tableCount))
        for _ in 0..<tableCount { table.append(try reader.text()) }
        return table
    }

    /// Loads the snapshot at `path` (mapped, not copied).
    static func load<C: ListCollection>(_ path: String, as collection: C.Type) throws(StartupError) -> [C.Item] {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw StartupError(description: "\(path): cannot be read (\(error))")
        }
        do throws(SnapshotError) {
            return try decode(file.bytes, as: C.self)
        } catch {
            throw StartupError(
                description:
                    "\(path) \(error.reason); refusing to start rather than serve without it. Restore it from a backup, or move it away to load the data files again (changes compacted into it are then lost)"
            )
        }
    }
}

/// Why a snapshot cannot be used.
struct SnapshotError: Error {
    let reason: String
}
