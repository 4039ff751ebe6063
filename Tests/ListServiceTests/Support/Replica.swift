import Foundation
import Glibc
import Basics

/// A `server` process over a test's PostgreSQL, with a plain HTTP client for it.
final class Replica: @unchecked Sendable {
    // Invariant: every stored property is set once; requests open sockets of their own, and
    // only the test's own thread kills the process.
    let process: Process
    let port: Int
    private let errors: Pipe
    /// What the server logged (read in the background, so a full pipe never blocks it).
    let log = Locked("")

    init(database: String, _ arguments: [String] = []) throws {
        (process, port, errors, _) = try startServer(["--database", database, "--no-access-log"] + arguments)
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

    /// One request on its own connection (`Connection: close`); status 0 if the server is gone.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], json: String? = nil) -> HTTPReply {
        guard let socket = connectSocket(port: port) else { return HTTPReply(status: 0, headers: [:], body: []) }
        defer { close(socket) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + body
        guard bytes.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            return HTTPReply(status: 0, headers: [:], body: [])
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let count = chunk.withUnsafeMutableBytes({ recv(socket, $0.baseAddress, $0.count, 0) }), count > 0 {
            received += chunk[..<count]
        }
        return HTTPReply(received)
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

/// An HTTP response, the body de-chunked.
struct HTTPReply {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]

    init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else {
            self.init(status: 0, headers: [:], body: [])
            return
        }
        let lines = text[..<end.lowerBound].split(separator: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(text[end.upperBound...].utf8)
        if headers["transfer-encoding"] == "chunked" { body = Self.dechunked(body) }
        self.init(status: Int(lines.first?.dropFirst(9).prefix(3) ?? "") ?? 0, headers: headers, body: body)
    }

    var json: [String: Any] { ListServiceTests.json(body) }

    private static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var rest = bytes[...]
        while let lineEnd = rest.firstIndex(of: UInt8(ascii: "\r")),
            let size = Int(String(decoding: rest[..<lineEnd], as: UTF8.self), radix: 16), size > 0
        {
            let start = lineEnd + 2
            out += rest[start..<min(rest.endIndex, start + size)]
            rest = rest[min(rest.endIndex, start + size + 2)...]
        }
        return out
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
