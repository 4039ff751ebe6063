import Foundation
import Glibc
import Basics

/// A `server` process over a test's PostgreSQL (seeded, by the first, with `SmallData`), with a
/// plain HTTP client for it.
final class Replica: @unchecked Sendable {
    // Invariant: every stored property is set once; requests open sockets of their own, and
    // only the test's own thread kills the process.
    let process: Process
    let port: Int
    private let errors: Pipe
    /// What the server logged (read in the background, so a full pipe never blocks it).
    let log = Locked("")

    init(database: String, _ arguments: [String] = []) throws {
        (process, port, errors, _) = try startServer(
            ["--database", database, "--data", try SmallData.directory(), "--no-access-log"] + arguments)
        let handle = errors.fileHandleForReading
        let log = self.log
        Thread.detachNewThread {
            while case let chunk = handle.availableData, !chunk.isEmpty { log.withLock { $0 += String(decoding: chunk, as: UTF8.self) } }
        }
    }

    deinit { kill(signal: SIGKILL) }

    func kill(signal: Int32) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    /// One request on its own connection; status 0 if the server is gone.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], json: String? = nil) -> HTTPReply {
        httpRequest(port: port, method, path, headers: headers, json: json)
    }

    /// A metric's value from `/metrics`.
    func metric(_ name: String) -> Int? {
        let text = String(decoding: request("GET", "/metrics").body, as: UTF8.self)
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
    }

    /// Opens `path` as a live stream and returns what reads it.
    func live(_ path: String, lastEventID: String? = nil) -> LiveReader? {
        guard let socket = connectSocket(port: port) else { return nil }
        let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        let request = Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\(resume)\r\n".utf8)
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return LiveReader(socket: socket)
    }
}

/// Reads a live stream as it comes.
final class LiveReader {
    private let socket: Int32
    private(set) var text = ""

    init(socket: Int32) { self.socket = socket }
    deinit { close(socket) }

    /// The last `id:` the stream sent.
    var lastEventID: String? {
        text.split(separator: "\n").last { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    /// Reads until `text` holds `needle`, or `seconds` pass; returns whether it did.
    func waitFor(_ needle: String, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !text.contains(needle) {
            guard Date() < deadline else { return false }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            text += String(decoding: chunk[..<count], as: UTF8.self)
        }
        return true
    }
}
