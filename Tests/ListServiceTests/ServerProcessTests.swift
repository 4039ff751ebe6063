import Foundation
import Glibc
import Testing

@testable import server

/// The `server` executable: its options, and the real process under signals.
@Suite struct ServerProcessTests {
    @Test func options_parseAndRejectClearly() throws {
        let options = try ServerOptions.parse(
            [
                "--host", "::1", "--port", "0", "--threads", "3", "--no-access-log", "--data", "/d", "--session-ttl", "1.5",
                "--body-timeout", "20", "--min-body-rate", "500", "--max-body-bytes", "1000", "--max-import-bytes", "5000",
                "--event-backend", "poll",
            ],
            environment: ["PORT": "9999"])
        #expect(options.configuration.host == "::1")
        #expect(options.configuration.port == 0)
        #expect(options.configuration.loopCount == 3)
        #expect(!options.configuration.isAccessLogEnabled)
        #expect(options.dataDirectory == "/d")
        #expect(options.sessionTimeToLive == .milliseconds(1500))
        #expect(options.configuration.bodyReadTimeout == .seconds(20))
        #expect(options.configuration.minBodyBytesPerSecond == 500)
        #expect(options.configuration.limits.maxBodyBytes == 1000)
        #expect(options.maxImportBytes == 5000)
        #expect(options.configuration.eventBackend == .poll)
        #expect(try ServerOptions.parse([], environment: [:]).configuration.eventBackend == .epoll)
        #expect(try ServerOptions.parse([], environment: ["PORT": "9999"]).configuration.port == 9999)
        for bad in [
            ["--bogus"], ["--port"], ["--port", "70000"], ["--threads", "0"], ["--idle-timeout", "-1"], ["--event-backend", "kqueue"],
        ] {
            #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse(bad, environment: [:]) }
        }
        #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse([], environment: ["PORT": "http"]) }
    }

    /// The binary SwiftPM built beside this test bundle.
    private var serverBinary: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("server").path),
            directory.pathComponents.count > 1
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("server")
    }

    /// Starts the server on a free port (`--port 0`) and learns the port from its log, so no
    /// test guesses a port another socket may hold. `log` is what it wrote before listening.
    private func startServer(_ arguments: [String]) throws -> (process: Process, port: Int, errors: Pipe, log: String) {
        let (process, errors) = try run(["--port", "0"] + arguments)
        var log = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = errors.fileHandleForReading.availableData  // waits for output; empty at end of file
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
            if let range = log.range(of: #"event=listening address=127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(log[range].split(separator: ":").last ?? "")
            {
                return (process, port, errors, log)
            }
        }
        throw CancellationError()
    }

    private func run(_ arguments: [String]) throws -> (Process, Pipe) {
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
    /// FoundationNetworking); nil while nothing listens.
    private func healthResponse(port: Int) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = chunk.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }), count > 0 {
            response += chunk[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }

    /// One request on a new connection, waiting for the whole response; nil if the server is gone.
    private func exchange(_ socket: Int32, _ request: String) -> (status: Int, headers: String)? {
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
                    return (Int(head.dropFirst(9).prefix(3)) ?? 0, head)
                }
            }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += chunk[..<count]
        }
    }

    private func connectSocket(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private func waitUntilUp(port: Int) -> Bool {
        for _ in 0..<150 {
            if healthResponse(port: port)?.hasSuffix(#"{"status":"ok"}"#) == true { return true }
            usleep(100_000)
        }
        return false
    }

    @Test func sigkillMidStream_losesNoAcknowledgedWrite() throws {
        try withTemporaryDirectory { state in
            let (first, port, _, _) = try startServer(["--no-access-log", "--state", state])
            defer { if first.isRunning { first.terminate() } }
            #expect(waitUntilUp(port: port))
            let socket = try #require(connectSocket(port: port))
            defer { close(socket) }
            let killAt = Date().addingTimeInterval(Double.random(in: 0.2...0.5))
            var acknowledged: [String] = []
            while let (status, head) = exchange(socket, Self.createOrder) {
                if status == 201, let id = Self.createdID(head) { acknowledged.append(id) }
                if Date() >= killAt && first.isRunning { kill(first.processIdentifier, SIGKILL) }
            }
            first.waitUntilExit()
            #expect(first.terminationReason == .uncaughtSignal)
            #expect(acknowledged.count > 5, "some writes were acknowledged before the kill")
            let (missing, log) = try restartAndFindMissing(acknowledged, state: state)
            #expect(missing.isEmpty, "acknowledged but lost: \(missing)")
            #expect(log.contains("replayed="))
        }
    }

    private static let orderBody =
        #"{"customerName":"Crash Test","currency":"USD","items":[{"name":"Mug","quantity":1,"unitPrice":9.99}],"#
        + #""shippingAddress":{"street":"1 Main St","city":"Austin","postalCode":"73301","country":"US","isResidential":false}}"#
    private static let createOrder =
        "POST /orders HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(orderBody.utf8.count)\r\n\r\n" + orderBody

    /// The id in a 201's `Location: /orders/o-…`.
    private static func createdID(_ head: String) -> String? {
        head.split(separator: "\r\n").first { $0.hasPrefix("Location:") }.map { String($0.dropFirst("Location: /orders/".count)) }
    }

    /// Starts the server again on `state`, asks for every acknowledged order and stops it;
    /// the ones it does not have, and its log.
    private func restartAndFindMissing(_ acknowledged: [String], state: String) throws -> (missing: [String], log: String) {
        let (server, port, errors, startLog) = try startServer(["--no-access-log", "--state", state])
        defer { if server.isRunning { server.terminate() } }
        #expect(waitUntilUp(port: port))
        let reader = try #require(connectSocket(port: port))
        defer { close(reader) }
        let missing = acknowledged.filter { exchange(reader, "GET /orders/\($0) HTTP/1.1\r\nHost: t\r\n\r\n")?.status != 200 }
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        return (missing, startLog + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func badOption_isOneLineAndExitStatus2() throws {
        let (process, errors) = try run(["--no-such-option"])
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2)
        #expect(text == "server: unknown option '--no-such-option' (see --help)\n")
    }

    @Test(arguments: ["epoll", "poll"])
    func sigterm_shutsDownGracefullyWithStatus0(eventBackend: String) throws {
        let (process, port, errors, startLog) = try startServer(["--no-access-log", "--in-memory", "--event-backend", eventBackend])
        defer { if process.isRunning { process.terminate() } }
        var isUp = false
        for _ in 0..<100 where !isUp {
            usleep(100_000)
            isUp = healthResponse(port: port)?.hasSuffix(#"{"status":"ok"}"#) == true
        }
        #expect(isUp)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let log = startLog + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("event=shutdown signal=15"))
        #expect(log.contains("event=stopped"))
    }

    /// Sets the file-size limit of a running process (`prlimit`, util-linux): past it a write
    /// fails with EFBIG, as on a full disk.
    private func setFileSizeLimit(_ limit: String, of process: Process) throws {
        let prlimit = Process()
        prlimit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        prlimit.arguments = ["--pid", "\(process.processIdentifier)", "--fsize=\(limit)"]
        try prlimit.run()
        prlimit.waitUntilExit()
        #expect(prlimit.terminationStatus == 0)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func fullDisk_answers503_acknowledgesNothingFalse_andRecovers() throws {
        try withTemporaryDirectory { state in
            let (server, port, _, _) = try startServer(["--no-access-log", "--state", state])
            defer { if server.isRunning { server.terminate() } }
            #expect(waitUntilUp(port: port))
            let socket = try #require(connectSocket(port: port))
            defer { close(socket) }
            try setFileSizeLimit("4096:unlimited", of: server)  // the journal is empty: a few records fit
            var acknowledged: [String] = []
            var refusal: (status: Int, headers: String)?
            for _ in 0..<40 where refusal == nil {
                guard let (status, head) = exchange(socket, Self.createOrder) else { break }
                if status == 201, let id = Self.createdID(head) {
                    acknowledged.append(id)
                } else {
                    refusal = (status, head)
                }
            }
            #expect(refusal?.status == 503)
            #expect(refusal?.headers.contains("Content-Type: application/problem+json") == true)
            #expect(!acknowledged.isEmpty, "writes before the limit were acknowledged")
            #expect(exchange(socket, "GET /health/ready HTTP/1.1\r\nHost: t\r\n\r\n")?.status == 503)
            #expect(exchange(socket, Self.createOrder)?.status == 503, "still full: still refused")
            try setFileSizeLimit("unlimited:unlimited", of: server)
            guard let (status, head) = exchange(socket, Self.createOrder), status == 201, let id = Self.createdID(head) else {
                Issue.record("writes did not resume once space returned")
                return
            }
            acknowledged.append(id)
            #expect(exchange(socket, "GET /health/ready HTTP/1.1\r\nHost: t\r\n\r\n")?.status == 200)
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()

            let (missing, _) = try restartAndFindMissing(acknowledged, state: state)
            #expect(missing.isEmpty, "acknowledged but lost: \(missing)")
            // Ids run on without a gap: no refused write left a record or used up a number.
            #expect(acknowledged == (1...acknowledged.count).map { String(format: "o-%06d", 10_000 + $0) })
        }
    }

    @Test func oversizedWriteBody_isRefusedFromItsHead_whileImportsTakeMegabytes() throws {
        let (server, port, _, _) = try startServer(["--no-access-log", "--in-memory"])
        defer { if server.isRunning { server.terminate() } }
        #expect(waitUntilUp(port: port))
        let socket = try #require(connectSocket(port: port))
        defer { close(socket) }
        // Only the head is sent: the refusal must not wait for 50 MB that never come.
        let refused = exchange(
            socket, "POST /tasks HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n")
        #expect(refused?.status == 413)
        let importer = try #require(connectSocket(port: port))
        defer { close(importer) }
        let feed = #"{"type":"FeatureCollection","features":[]}"# + String(repeating: " ", count: 1_000_000)
        let imported = exchange(
            importer,
            "POST /quakes/import HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(feed.utf8.count)\r\n\r\n" + feed
        )
        #expect(imported?.status == 200)
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
    }
}
