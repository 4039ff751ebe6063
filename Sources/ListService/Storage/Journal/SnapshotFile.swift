import Foundation

/// A collection's items in the state directory, in binary: what a restart loads instead of
/// parsing JSON. Layout: the magic `LSSNAP\0\n`, the format version (4 bytes, little-endian),
/// then varints and text as `SnapshotWriter` writes them: the collection's name, the item
/// count, the table of shared strings, the items' bytes; last, the CRC-32 of everything
/// before it (4 bytes). The JSON data files stay the interchange format.
package enum SnapshotFile {
    static let magic = Array("LSSNAP\0\n".utf8)
    /// Bump whenever the layout or any collection's `writeSnapshotItem` changes. A build reads
    /// the formats from `oldestReadableVersion` on (version 2 added owners to orders and tasks;
    /// a version 1 snapshot's items have none); any other it names and refuses to start.
    static let formatVersion: UInt32 = 2
    static let oldestReadableVersion: UInt32 = 1

    /// The snapshot's name in the state directory: `orders.snapshot`.
    static func fileName<C: ListCollection>(_ collection: C.Type) -> String { "\(C.name).snapshot" }

    /// The snapshot of `items`, in parts to be written one after another (the items' bytes are
    /// the bulk, and are not copied again to join them).
    static func encode<C: ListCollection>(_ items: [C.Item], as collection: C.Type) -> [[UInt8]] {
        encode(as: C.self, expectedCount: items.count) { items.forEach($0) }
    }

    /// The snapshot of the items `eachItem` hands to its argument, about `expectedCount` of
    /// them: encoded as they come, so the items are never copied for it.
    static func encode<C: ListCollection>(
        as collection: C.Type, expectedCount: Int, eachItem: ((C.Item) -> Void) -> Void
    ) -> [[UInt8]] {
        var content = SnapshotWriter(reservingCapacity: 64 * expectedCount)
        var count = 0
        eachItem { item in
            C.writeSnapshotItem(item, to: &content)
            count += 1
        }
        var header = SnapshotWriter(reservingCapacity: 1024)
        header.text(C.name)
        header.unsigned(UInt64(count))
        header.unsigned(UInt64(content.table.count))
        for text in content.table { header.text(text) }
        header.unsigned(UInt64(content.body.count))
        var prefix = magic
        withUnsafeBytes(of: formatVersion.littleEndian) { prefix.append(contentsOf: $0) }
        prefix += header.body
        let checksum = CRC32.checksum(content.body, continuing: CRC32.checksum(prefix))
        return [prefix, content.body, withUnsafeBytes(of: checksum.littleEndian, Array.init)]
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
            var header = SnapshotReader(UnsafeRawBufferPointer(rebasing: bytes[fixed..<(bytes.count - 4)]), table: [])
            let name = try header.text()
            guard name == C.name else { throw SnapshotFormatError(offset: 0, reason: "holds \(name), not \(C.name)") }
            let count = try header.unsigned()
            let tableCount = try header.unsigned()
            guard tableCount <= UInt64(bytes.count) else { throw SnapshotFormatError(offset: 0, reason: "too many shared strings") }
            var table: [String] = []
            table.reserveCapacity(Int(tableCount))
            for _ in 0..<tableCount { table.append(try header.text()) }
            let body = try header.data()
            guard header.isAtEnd else { throw SnapshotFormatError(offset: 0, reason: "bytes follow the items") }
            guard count <= UInt64(body.count) else { throw SnapshotFormatError(offset: 0, reason: "more items than bytes") }
            var reader = SnapshotReader(body, table: table, formatVersion: version)
            var items: [C.Item] = []
            items.reserveCapacity(Int(count))
            let readItem = C.makeSnapshotItemReader()
            for _ in 0..<count { items.append(try readItem(&reader)) }
            guard reader.isAtEnd else { throw SnapshotFormatError(offset: 0, reason: "bytes follow the last item") }
            return items
        } catch {
            throw SnapshotError(reason: "cannot be read: \(error)")
        }
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
