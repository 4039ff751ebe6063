import Foundation
import Glibc

/// File operations with the durability steps spelled out: write, fsync, rename, fsync the
/// directory. Errors carry the call and the path.
enum DurableFile {
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let path: String
        let code: Int32
        var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
    }

    /// Replaces `path` with `bytes` atomically: a reader (or a crash) sees the old file or the new one.
    static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) { try replace(path, with: [bytes]) }

    /// Data written past which `replace` flushes what it has written so far.
    static let flushEveryBytes = 1 << 20

    /// Replaces the file with `parts` written one after another.
    static func replace(_ path: String, with parts: [[UInt8]]) throws(Failure) {
        try replace(path) { write in parts.forEach(write) }
    }

    /// Replaces the file with the pieces `produce` hands to its argument, written as they come
    /// (a snapshot is never held whole). A large file is flushed every `flushEveryBytes` as it
    /// is written: the file system commits other files' fsyncs (the journal's, which writes wait
    /// for) together with the dirty data before them, so one flush of a whole snapshot at the
    /// end would stall every write behind it. After a failed write the rest is not written, and
    /// the failure is thrown once `produce` returns; the file is then left as it was.
    static func replace(_ path: String, writing produce: (_ write: ([UInt8]) -> Void) -> Void) throws(Failure) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(call: "open", path: temporary, code: errno) }
        var failure: Failure?
        var unflushed = 0
        produce { part in
            guard failure == nil else { return }
            do throws(Failure) {
                for start in stride(from: 0, to: part.count, by: flushEveryBytes) {
                    let end = min(part.count, start + flushEveryBytes)
                    try writeAll(fd, part, range: start..<end, path: temporary)
                    unflushed += end - start
                    guard unflushed >= flushEveryBytes else { continue }
                    guard fdatasync(fd) == 0 else { throw Failure(call: "fdatasync", path: temporary, code: errno) }
                    unflushed = 0
                }
            } catch {
                failure = error
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = Failure(call: "fsync", path: temporary, code: errno) }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else { throw Failure(call: "rename", path: path, code: errno) }
        try syncDirectory(of: path)
    }

    /// Makes a rename or a new file in the directory durable.
    static func syncDirectory(of path: String) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(call: "open", path: directory, code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure(call: "fsync", path: directory, code: errno) }
    }

    /// The whole file, or nil when it does not exist (or cannot be read: `Failure`).
    static func read(_ path: String) throws(Failure) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(call: "open", path: path, code: errno)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(call: "read", path: path, code: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        try writeAll(fd, bytes, range: bytes.indices, path: path)
    }

    /// Writes `bytes[range]`, however many calls it takes.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], range: Range<Int>, path: String) throws(Failure) {
        var offset = range.lowerBound
        let failure: Failure? = bytes.withUnsafeBytes { raw in
            while offset < range.upperBound {
                guard let base = raw.baseAddress else { return nil }
                let written = Glibc.write(fd, base + offset, range.upperBound - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return Failure(call: "write", path: path, code: errno)
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }
}
