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
                "--event-backend", "poll", "--compact-after", "65536", "--idempotency-keys", "500", "--max-lists-per-stream", "4",
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
        #expect(options.compactAfterBytes == 65536)
        #expect(options.idempotencyKeys == 500)
        #expect(options.live.maxListsPerStream == 4)
        #expect(try ServerOptions.parse([], environment: [:]).idempotencyKeys == 100_000)
        #expect(ServerOptions.usage.contains("load orders.json, tasks.json and quakes.geojson from DIR, and users.json when present"))
        #expect(try ServerOptions.parse([], environment: [:]).compactAfterBytes == 64 << 20)
        #expect(try ServerOptions.parse([], environment: [:]).configuration.eventBackend == .epoll)
        #expect(try ServerOptions.parse([], environment: ["PORT": "9999"]).configuration.port == 9999)
        for bad in [
            ["--bogus"], ["--port"], ["--port", "70000"], ["--threads", "0"], ["--idle-timeout", "-1"], ["--event-backend", "kqueue"],
            ["--compact-after", "1000"], ["--idempotency-keys", "0"],
        ] {
            #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse(bad, environment: [:]) }
        }
        #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse([], environment: ["PORT": "http"]) }
    }

    @Test func databaseOptions_comeFromTheFlagOrDATABASE_URL_andExcludeLocalState() throws {
        let url = "postgresql://listservice@127.0.0.1:5432/listservice"
        #expect(try ServerOptions.parse([], environment: [:]).databaseURL == nil)
        #expect(try ServerOptions.parse([], environment: ["DATABASE_URL": url]).databaseURL == url)
        let flagged = try ServerOptions.parse(
            ["--database", "host=/tmp dbname=x", "--retain-changes", "500"], environment: ["DATABASE_URL": url])
        #expect(flagged.databaseURL == "host=/tmp dbname=x", "the flag wins over the environment")
        #expect(flagged.retainedChanges == 500)
        for bad in [["--database", url, "--state", "/s"], ["--database", url, "--in-memory"], ["--retain-changes", "0"], ["--database"]] {
            #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse(bad, environment: [:]) }
        }
    }

    @Test func anUnreachableDatabase_stopsStartupWithOneLine() throws {
        let (process, errors) = try run(["--port", "0", "--database", "postgresql://nobody@127.0.0.1:1/none"])
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(said.hasPrefix("server: cannot start: database: ") && said.split(separator: "\n").count == 1)
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

    /// A client that retries under its `Idempotency-Key` through kill -9s: whatever the moment
    /// of each kill (before the commit, between the commit and the answer, after it), every
    /// key ends as exactly one order.
    @Test func sigkillWhileWritingUnderKeys_leavesEachKeyExactlyOneOrder() throws {
        try withTemporaryDirectory { state in
            var keys = 0, unanswered: [Int] = [], initial: Int?
            func create(_ key: Int) -> String {
                let body = Self.orderBody.replacingOccurrences(of: "Crash Test", with: "Retry \(key)")
                return "POST /orders HTTP/1.1\r\nHost: localhost\r\nIdempotency-Key: key-\(key)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
            }
            for round in 0...3 {
                let (server, port, _, _) = try startServer(["--no-access-log", "--state", state])
                defer { if server.isRunning { server.terminate() } }
                #expect(waitUntilUp(port: port))
                let total = { httpRequest(port: port, "GET", "/orders?limit=1").json["total"] as? Int }
                if initial == nil { initial = total() }
                let socket = try #require(connectSocket(port: port))
                defer { close(socket) }
                for key in unanswered { #expect(exchange(socket, create(key))?.status == 201, "the retry of key-\(key)") }
                unanswered = []
                if round == 3 {
                    #expect(total() == (initial ?? 0) + keys, "\(keys) keys, one order each")
                    break
                }
                let killAt = Date().addingTimeInterval(Double.random(in: 0.1...0.3))
                while true {
                    keys += 1
                    guard exchange(socket, create(keys))?.status == 201 else {
                        unanswered.append(keys)
                        break
                    }
                    if Date() >= killAt && server.isRunning { kill(server.processIdentifier, SIGKILL) }
                }
                server.waitUntilExit()
            }
            #expect(keys > 10)
        }
    }

    private static let orderBody =
        #"{"customerName":"Crash Test","currency":"USD","items":[{"name":"Mug","quantity":1,"unitPrice":9.99}],"#
        + #""shippingAddress":{"street":"1 Main St","city":"Austin","postalCode":"73301","country":"US","isResidential":false}}"#
    private static let createOrder =
        "POST /orders HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(orderBody.utf8.count)\r\n\r\n"
        + orderBody

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
        let missing = acknowledged.filter { exchange(reader, "GET /orders/\($0) HTTP/1.1\r\nHost: localhost\r\n\r\n")?.status != 200 }
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        return (missing, startLog + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func theAccessLogNamesEachRequestsTrace_andTheAnswerReportsIt() throws {
        let (process, port, errors, _) = try startServer(["--in-memory"])
        defer { if process.isRunning { process.terminate() } }
        var log = ""
        let deadline = Date().addingTimeInterval(10)
        /// Reads the server's stderr until `marker` is in it (10 s at most); a request between
        /// reads makes sure there is always another line to read.
        func logContains(_ marker: String) -> Bool {
            while !log.contains(marker), Date() < deadline {
                _ = httpRequest(port: port, "GET", "/health")
                log += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            }
            return log.contains(marker)
        }
        let parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let reply = httpRequest(port: port, "GET", "/orders", headers: ["traceparent": parent, "tracestate": "rojo=1"])
        let answered = try #require(reply.headers["traceresponse"])
        #expect(answered.hasPrefix("00-4bf92f3577b34da6a3ce929d0e0e4736-") && answered.hasSuffix("-01"))
        #expect(reply.headers["tracestate"] == "rojo=1")
        let span = String(answered.dropFirst(36).prefix(16))
        #expect(logContains("GET /orders 200"))
        let line = log.split(separator: "\n").first { $0.contains("GET /orders 200") }
        #expect(line?.hasSuffix("trace=4bf92f3577b34da6a3ce929d0e0e4736 span=\(span)") == true)
        // A traced write: its commit is logged with the request's trace and this server's span.
        let write = httpRequest(
            port: port, "POST", "/users", headers: ["traceparent": "00-11111111111111111111111111111111-2222222222222222-01"],
            json: #"{"name":"Traced Writer"}"#)
        #expect(write.status == 201)
        let writeSpan = String((write.headers["traceresponse"] ?? "").dropFirst(36).prefix(16))
        #expect(logContains("event=commit changes=1 traces=11111111111111111111111111111111-\(writeSpan)"))
        // A body too large to parse on the event loop is parsed off it, its trace kept.
        let padded = httpRequest(
            port: port, "POST", "/users", headers: ["traceparent": "00-33333333333333333333333333333333-4444444444444444-01"],
            json: #"{"name":"Padded Writer"}"# + String(repeating: " ", count: 20_000))
        #expect(padded.status == 201)
        let paddedSpan = String((padded.headers["traceresponse"] ?? "").dropFirst(36).prefix(16))
        #expect(logContains("traces=33333333333333333333333333333333-\(paddedSpan)"))
        // Without a traceparent, a new trace: in the access log, not in the answer.
        let fresh = httpRequest(port: port, "GET", "/health")
        #expect(fresh.status == 200 && fresh.headers["traceresponse"] == nil)
        #expect(logContains("GET /health 200"))
        let healthLine = log.split(separator: "\n").first { $0.contains("GET /health 200") } ?? ""
        #expect(healthLine.range(of: #" trace=[0-9a-f]{32} span=[0-9a-f]{16}$"#, options: .regularExpression) != nil)
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
        try Prerequisite.require(Self.hasPrlimit, "prlimit (util-linux)")
        let prlimit = Process()
        prlimit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        prlimit.arguments = ["--pid", "\(process.processIdentifier)", "--fsize=\(limit)"]
        try prlimit.run()
        prlimit.waitUntilExit()
        #expect(prlimit.terminationStatus == 0)
    }

    static var hasPrlimit: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") }

    @Test(Prerequisite.needs(hasPrlimit, "prlimit (util-linux)"))
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
            #expect(exchange(socket, "GET /health/ready HTTP/1.1\r\nHost: localhost\r\n\r\n")?.status == 503)
            #expect(exchange(socket, Self.createOrder)?.status == 503, "still full: still refused")
            try setFileSizeLimit("unlimited:unlimited", of: server)
            guard let (status, head) = exchange(socket, Self.createOrder), status == 201, let id = Self.createdID(head) else {
                Issue.record("writes did not resume once space returned")
                return
            }
            acknowledged.append(id)
            #expect(exchange(socket, "GET /health/ready HTTP/1.1\r\nHost: localhost\r\n\r\n")?.status == 200)
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
            socket, "POST /tasks HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n")
        #expect(refused?.status == 413)
        let importer = try #require(connectSocket(port: port))
        defer { close(importer) }
        let feed = #"{"type":"FeatureCollection","features":[]}"# + String(repeating: " ", count: 1_000_000)
        let imported = exchange(
            importer,
            "POST /quakes/import HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(feed.utf8.count)\r\n\r\n"
                + feed
        )
        #expect(imported?.status == 200)
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
    }
}
