import Foundation
import Glibc

/// An append-only log of changes, one file per collection. Each record is framed as
/// `"LSJ1"`, payload length (UInt32 LE), CRC-32 of the payload (UInt32 LE), payload.
/// A record is acknowledged only after `append` has fsync'ed it.
final class Journal {
    let path: String
    private var fd: Int32
    /// Bytes in the file: where the next record goes.
    private(set) var length: Int

    static let magic: [UInt8] = Array("LSJ1".utf8)
    static let headerLength = 12

    /// Opens (creating) the journal at `path` for appending; `length` must be its recovered size.
    init(path: String, length: Int) throws(DurableFile.Failure) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFile.Failure(call: "open", path: path, code: errno) }
        self.length = length
        try DurableFile.syncDirectory(of: path)
    }

    deinit { close(fd) }

    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var record = magic
        record.reserveCapacity(headerLength + payload.count)
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { record.append(contentsOf: $0) }
        withUnsafeBytes(of: CRC32.checksum(payload).littleEndian) { record.append(contentsOf: $0) }
        record.append(contentsOf: payload)
        return record
    }

    /// Bytes gathered before a write while appending: a batch of many records (an import) is
    /// written in pieces this size, never joined into one copy of itself.
    static let writeChunkBytes = 1 << 20

    /// Appends framed records and makes them durable (one fsync for all). On failure (disk
    /// full, I/O error) whatever part reached the file is cut off again, so a later append
    /// never follows a torn record; the journal stays as it was before the call. `records` may
    /// frame each record as it is read (a lazy map), so a batch is never all in memory twice.
    func append(_ records: some Sequence<[UInt8]>) throws(DurableFile.Failure) {
        var chunk: [UInt8] = []
        var written = 0
        do throws(DurableFile.Failure) {
            for record in records {
                chunk.append(contentsOf: record)
                if chunk.count >= Self.writeChunkBytes {
                    try DurableFile.writeAll(fd, chunk, path: path)
                    written += chunk.count
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            try DurableFile.writeAll(fd, chunk, path: path)
            written += chunk.count
            guard fdatasync(fd) == 0 else { throw DurableFile.Failure(call: "fdatasync", path: path, code: errno) }
        } catch {
            try? truncate(to: length)
            throw error
        }
        length += written
    }

    /// Cuts the file back to `newLength` bytes, durably (a rolled-back batch, a failed append).
    func truncate(to newLength: Int) throws(DurableFile.Failure) {
        guard ftruncate(fd, off_t(newLength)) == 0 else { throw DurableFile.Failure(call: "ftruncate", path: path, code: errno) }
        guard fdatasync(fd) == 0 else { throw DurableFile.Failure(call: "fdatasync", path: path, code: errno) }
        length = newLength
    }

    /// Whether appends go to the rotated file (`rotatedPath`) while a compaction writes the
    /// snapshot that will hold this file's records.
    private(set) var isRotated = false

    /// The file appends go to during a compaction: `orders.journal.next`.
    static func rotatedPath(of path: String) -> String { path + ".next" }

    /// Makes the empty file a rotation will append to, durably (its directory entry flushed),
    /// off the writer queue: a record acknowledged in it must survive a crash.
    static func prepareRotation(of path: String) throws(DurableFile.Failure) -> Int32 {
        let next = rotatedPath(of: path)
        let fd = open(next, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFile.Failure(call: "open", path: next, code: errno) }
        do throws(DurableFile.Failure) {
            try DurableFile.syncDirectory(of: next)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// From now on appends go to the prepared file `next`; the records so far stay in this
    /// file until `completeRotation` (a snapshot holds them by then). No I/O: runs between writes.
    func rotate(to next: Int32) {
        close(fd)
        fd = next
        length = 0
        isRotated = true
    }

    /// Once a snapshot holds every record of the file rotated away from, the rotated file
    /// takes the journal's name, and with it the old records go. Off the writer queue: appends
    /// keep going to the same file meanwhile. A crash before the rename is flushed leaves both
    /// files, which start-up joins again (`joinRotated`).
    static func completeRotation(of path: String) throws(DurableFile.Failure) {
        guard rename(rotatedPath(of: path), path) == 0 else { throw DurableFile.Failure(call: "rename", path: path, code: errno) }
        try DurableFile.syncDirectory(of: path)
    }

    /// The rename of `completeRotation` is done and durable.
    func rotationCompleted() { isRotated = false }

    /// At start-up, before the journal is read: a rotated file left by a compaction that a
    /// stop interrupted is appended to the journal (intact records of each, in order, framed
    /// again as read), so the journal is one file again. Returns the bytes it took from the rotated file.
    static func joinRotated(at path: String) throws(JournalCorruption) -> Int {
        let next = rotatedPath(of: path)
        guard access(next, F_OK) == 0 else { return 0 }
        let first = try JournalReader.read(path), second = try JournalReader.read(next)
        do {
            try DurableFile.replace(path, with: (first.payloads + second.payloads).map(frame))
            // Gone already: another process on this directory completed its rotation meanwhile.
            guard unlink(next) == 0 || errno == ENOENT else { throw DurableFile.Failure(call: "unlink", path: next, code: errno) }
            try DurableFile.syncDirectory(of: path)
        } catch {
            throw JournalCorruption(path: next, offset: 0, reason: "\(error)", isUnreadable: true)
        }
        return second.validLength
    }
}

/// What reading a journal found.
struct JournalContents {
    var payloads: [[UInt8]] = []
    /// Bytes up to the end of the last good record.
    var validLength = 0
    /// Bytes after it that were dropped: a record torn by a crash mid-write.
    var droppedTail = 0
}

/// Corruption before the end of a journal: a bad record followed by good ones. Starting
/// anyway would silently lose the good ones, so start-up refuses.
struct JournalCorruption: Error, CustomStringConvertible {
    let path: String
    let offset: Int
    let reason: String
    /// The file could not be read at all (an I/O error, a directory in its place).
    var isUnreadable = false
    var description: String {
        if isUnreadable { return "\(path): cannot be read (\(reason)); refusing to start." }
        return "\(path): corrupt record at byte \(offset) (\(reason)) with intact records after it; refusing to start. "
            + "Move the file aside to start without its changes, or repair it."
    }
}

enum JournalReader {
    /// Reads every intact record. A damaged tail (no intact record after it) is reported in
    /// `droppedTail`; damage followed by an intact record throws.
    static func read(_ path: String) throws(JournalCorruption) -> JournalContents {
        let bytes: [UInt8]
        do {
            guard let contents = try DurableFile.read(path) else { return JournalContents() }
            bytes = contents
        } catch {
            throw JournalCorruption(path: path, offset: 0, reason: "\(error)", isUnreadable: true)
        }
        var contents = JournalContents()
        var offset = 0
        while offset < bytes.count {
            switch record(in: bytes, at: offset) {
            case .intact(let payload, let end):
                contents.payloads.append(payload)
                offset = end
                contents.validLength = end
            case .damaged(let reason):
                if let later = nextIntactRecord(in: bytes, after: offset) {
                    throw JournalCorruption(path: path, offset: offset, reason: "\(reason); next intact record at byte \(later)")
                }
                contents.droppedTail = bytes.count - offset
                return contents
            }
        }
        return contents
    }

    private enum Record {
        case intact(payload: [UInt8], end: Int)
        case damaged(String)
    }

    private static func record(in bytes: [UInt8], at offset: Int) -> Record {
        guard bytes.count - offset >= Journal.headerLength else { return .damaged("truncated header") }
        guard bytes[offset..<(offset + 4)].elementsEqual(Journal.magic) else { return .damaged("bad magic") }
        let length = Int(UInt32(littleEndian: load(bytes, offset + 4)))
        let checksum = UInt32(littleEndian: load(bytes, offset + 8))
        let start = offset + Journal.headerLength
        guard length <= bytes.count - start else { return .damaged("truncated payload") }
        let payload = Array(bytes[start..<(start + length)])
        guard CRC32.checksum(payload) == checksum else { return .damaged("checksum mismatch") }
        return .intact(payload: payload, end: start + length)
    }

    private static func load(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    private static func nextIntactRecord(in bytes: [UInt8], after offset: Int) -> Int? {
        var candidate = offset + 1
        while candidate + Journal.headerLength <= bytes.count {
            if bytes[candidate] == Journal.magic[0], case .intact = record(in: bytes, at: candidate) { return candidate }
            candidate += 1
        }
        return nil
    }
}
