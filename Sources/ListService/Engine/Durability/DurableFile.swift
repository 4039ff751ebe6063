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

    /// Replaces the file with `parts` written one after another.
    static func replace(_ path: String, with parts: [[UInt8]]) throws(Failure) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(call: "open", path: temporary, code: errno) }
        do throws(Failure) {
            for part in parts { try writeAll(fd, part, path: temporary) }
            guard fsync(fd) == 0 else { throw Failure(call: "fsync", path: temporary, code: errno) }
        } catch {
            close(fd)
            throw error
        }
        close(fd)
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
        var offset = 0
        let failure: Failure? = bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                guard let base = raw.baseAddress else { return nil }
                let written = write(fd, base + offset, raw.count - offset)
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
