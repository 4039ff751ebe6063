import Foundation
import Glibc

// Running the real `server` executable in tests, and talking to it over plain sockets
// (Foundation on Linux has no HTTP client without FoundationNetworking).

/// The binary SwiftPM built beside this test bundle.
var serverBinary: URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("server").path),
        directory.pathComponents.count > 1
    {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("server")
}

/// Starts the server on a free port (`--port 0`) and learns the port from its log, so no
/// test guesses a port another socket may hold. `log` is what it wrote before listening. The
/// per-caller rate limits are off (a test sends from one address, fast) unless `arguments`
/// turn them on again.
func startServer(_ arguments: [String]) throws -> (process: Process, port: Int, errors: Pipe, log: String) {
    let (process, errors) = try run(["--port", "0", "--rate-limit", "off", "--write-rate-limit", "off"] + arguments)
    var log = ""
    // A ThreadSanitizer build loads a database's 17,000 items in about 20 s on a busy 2-core machine.
    let deadline = Date().addingTimeInterval(90)
    while Date() < deadline {
        let chunk = errors.fileHandleForReading.availableData  // waits for output; empty at end of file
        if chunk.isEmpty { break }
        log += String(decoding: chunk, as: UTF8.self)
        if let range = log.range(of: #"event=listening address=\S+:(\d+)"#, options: .regularExpression),
            let port = Int(log[range].split(separator: ":").last ?? "")
        {
            return (process, port, errors, log)
        }
    }
    if process.isRunning { process.terminate() }  // never leave a server behind a failed start
    throw ServerStartFailure(arguments: arguments, log: log)
}

/// The server did not say it was listening: its arguments and what it logged.
struct ServerStartFailure: Error, CustomStringConvertible {
    let arguments: [String]
    let log: String
    var description: String { "the server started with \(arguments) did not listen; it logged: \(log)" }
}

func run(_ arguments: [String]) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = serverBinary
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    return (process, errors)
}

/// `GET /health` over a plain socket (Foundation on Linux has no HTTP client without
/// FoundationNetworking): its body; nil while nothing listens.
func healthResponse(port: Int) -> String? {
    let reply = httpRequest(port: port, "GET", "/health")
    return reply.status == 0 ? nil : String(decoding: reply.body, as: UTF8.self)
}

/// One request on its own connection (`Connection: close`), read to its end; status 0 if
/// nothing listens or the server is gone.
func httpRequest(port: Int, _ method: String, _ path: String, headers: [String: String] = [:], json: String? = nil) -> HTTPReply {
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

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }

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

/// One request on a new connection, waiting for the whole response; nil if the server is gone.
func exchange(_ socket: Int32, _ request: String) -> (status: Int, headers: String)? {
    exchangeWhole(socket, request).map { (Int($0.head.dropFirst(9).prefix(3)) ?? 0, $0.head) }
}

/// One request on a connection, waiting for the whole response (a `Content-Length` body):
/// status, headers and body; nil if the server is gone.
func exchangeReply(_ socket: Int32, _ request: String) -> HTTPReply? {
    exchangeWhole(socket, request).map { HTTPReply($0.bytes) }
}

/// Sends `request` and reads until its whole response is in: its head and all its bytes.
private func exchangeWhole(_ socket: Int32, _ request: String) -> (head: String, bytes: [UInt8])? {
    let bytes = Array(request.utf8)
    guard bytes.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else { return nil }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 8192)
    while true {
        let text = String(decoding: received, as: UTF8.self)
        if let headEnd = text.range(of: "\r\n\r\n") {
            let head = String(text[..<headEnd.lowerBound])
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            if received.count >= text.utf8.distance(from: text.startIndex, to: headEnd.upperBound) + length {
                return (head, received)
            }
        }
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        received += chunk[..<count]
    }
}

/// A client socket connected to the server on `port` (reads time out after `timeout` seconds);
/// `receiveBuffer` shrinks its receive window, so what it does not read stays in the server.
func connectSocket(port: Int, receiveBuffer: Int32? = nil, timeout: Int = 5) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var readTimeout = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &readTimeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        return nil
    }
    return fd
}

func waitUntilUp(port: Int) -> Bool {
    for _ in 0..<150 {
        if healthResponse(port: port)?.hasSuffix(#"{"status":"ok"}"#) == true { return true }
        usleep(100_000)
    }
    return false
}
