import Basics
import Foundation
import Glibc
import Testing

@testable import HTTPLite

/// Live tests: a real server on an ephemeral port, spoken to with raw bytes.
@Suite struct ServerSocketTests {
    let get = "GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"

    @Test func keepAlive_servesManyRequestsOnOneConnection() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            for _ in 0..<20 {
                client.send(get)
                let response = try #require(client.readResponse())
                #expect(response.status == 200)
                #expect(response.body == "hello")
                #expect(response.header("Connection") == nil)
                #expect(response.header("Date") != nil)
                #expect(response.header("Server") == "HTTPLite")
            }
        }
    }

    @Test func pipelinedRequests_areAnsweredInOrder() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send(get + "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc" + get)
            let bodies = (0..<3).compactMap { _ in client.readResponse()?.body }
            #expect(bodies == ["hello", "abc", "hello"])
        }
    }

    @Test func largeBodiesSentInPlace_arriveWhole_inOrder_withPipelinedAnswersBetween() throws {
        // Bodies of a few KB to 3 MB leave from their own storage (`OutboundBytes`); the
        // larger ones fill the socket, so sends stop part-way and resume across the boundary.
        // Made once, before the server starts (a debug build under ThreadSanitizer is slow).
        let sizes = [3_000_000, 5_000, 1_000_000, 4_096, 4_095]
        let bodies = Dictionary(uniqueKeysWithValues: sizes.map { size in (size, (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) }) })
        var router = makeTestRouter()
        router.get("/big") { request in Response(contentType: "text/plain", bytes: bodies[Int(request.query["bytes"] ?? "") ?? 0] ?? []) }
        try withServer(router: router) { server in
            let client = try RawClient(port: server.port, receiveTimeoutMilliseconds: 60_000)
            client.send(sizes.map { "GET /big?bytes=\($0) HTTP/1.1\r\nHost: t\r\n\r\n" + get }.joined())
            for size in sizes {
                let big = try #require(client.readResponse())
                #expect(big.status == 200)
                #expect(Array(big.body.utf8) == bodies[size])
                #expect(client.readResponse()?.body == "hello")
            }
        }
    }

    @Test func bodiesInTwoPieces_arriveWhole_inOrder_withPipelinedAnswersBetween() throws {
        // A lead (copied, or in place) and a shared tail (in place when large); the 3 MB tail
        // fills the socket, so sends stop part-way and resume across the pieces.
        let tails = [3_000_000, OutboundBytes.inPlaceMinimum, 100].map { size in (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) } }
        let leads = [[UInt8](repeating: UInt8(ascii: "L"), count: 10), [UInt8](repeating: 77, count: OutboundBytes.inPlaceMinimum)]
        var router = makeTestRouter()
        router.get("/parts") { request in
            let (lead, tail) = (Int(request.query["lead"] ?? "") ?? 0, Int(request.query["tail"] ?? "") ?? 0)
            return Response(headers: ["Content-Type": "text/plain"], body: .parts([leads[lead], tails[tail]]))
        }
        try withServer(router: router) { server in
            let client = try RawClient(port: server.port, receiveTimeoutMilliseconds: 60_000)
            let cases = leads.indices.flatMap { lead in tails.indices.map { (lead, $0) } }
            client.send(cases.map { "GET /parts?lead=\($0.0)&tail=\($0.1) HTTP/1.1\r\nHost: t\r\n\r\n" + get }.joined())
            for (lead, tail) in cases {
                let response = try #require(client.readResponse())
                #expect(Array(response.body.utf8) == leads[lead] + tails[tail], "lead \(lead), tail \(tail)")
                #expect(client.readResponse()?.body == "hello")
            }
        }
    }

    @Test func malformedRequest_gets400ProblemThenClose() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n" + get)
            let response = try #require(client.readResponse())
            #expect(response.status == 400)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.header("Connection") == "close")
            #expect(response.body.contains(#""status":400"#))
            #expect(client.waitForClose())
        }
    }

    @Test func unknownMethod_gets501AndOversizeBody413() throws {
        try withServer { server in
            let brew = try RawClient(port: server.port)
            brew.send("BREW /pot HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(brew.readResponse()?.status == 501)
            let big = try RawClient(port: server.port)
            big.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999\r\n\r\n")
            #expect(big.readResponse()?.status == 413)
            #expect(big.waitForClose())
        }
    }

    @Test func handlerError_becomesGeneric500_andOneLogLineUnderItsReference() throws {
        let lines = Locked<[String]>([])
        let configuration = ServerConfiguration.makeForTesting { $0.errorLog = { line in lines.withLock { $0.append(line) } } }
        try withServer(configuration) { server in
            let client = try RawClient(port: server.port)
            client.send("GET /fail HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 500)
            #expect(response.body.contains("internal-error"))
            #expect(
                lines.withLock { $0 } == [
                    "level=error event=internal-error request=1 path=/fail error=\(LogFmt.value(CancellationError()))"
                ])
            client.send(get)
            #expect(client.readResponse()?.status == 200, "a handler error does not end the connection")
        }
    }

    @Test func http10_getsKeepAliveOnlyWhenAsked() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(client.readResponse()?.header("Connection") == "keep-alive")
            client.send("GET /hello HTTP/1.0\r\n\r\n")
            #expect(client.readResponse()?.header("Connection") == "close")
            #expect(client.waitForClose())
        }
    }

    @Test func head_hasLengthButNoBody() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("HEAD /hello HTTP/1.1\r\nHost: t\r\n\r\n" + get)
            let head = try #require(client.readResponse(toHead: true))
            #expect(head.header("Content-Length") == "5")
            #expect(head.body.isEmpty)
            #expect(client.readResponse()?.body == "hello", "the next response starts right after the head")
        }
    }

    @Test func expectContinue_getsInterimResponse() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(client.readResponse()?.status == 100)
            client.send("data")
            #expect(client.readResponse()?.body == "data")
        }
    }

    @Test func halfClosedClient_stillGetsItsResponses() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send(get + get)
            client.closeWriting()
            #expect(client.readResponse()?.status == 200)
            #expect(client.readResponse()?.status == 200)
            #expect(client.waitForClose())
        }
    }

    @Test func connectionsPastTheCap_get503() throws {
        let configuration = ServerConfiguration.makeForTesting { $0.maxConnections = 2 }
        try withServer(configuration) { server in
            let first = try RawClient(port: server.port), second = try RawClient(port: server.port)
            for client in [first, second] {
                client.send(get)
                #expect(client.readResponse()?.status == 200)
            }
            let third = try RawClient(port: server.port)
            let rejected = try #require(third.readResponse())
            #expect(rejected.status == 503)
            #expect(rejected.header("Retry-After") == "1")
            #expect(third.waitForClose())
            first.send(get)
            #expect(first.readResponse()?.status == 200, "admitted connections are unaffected")
            #expect(server.statistics.snapshot.rejectedConnections == 1)
        }
    }

    @Test func streamingResponse_sendsChunksAsTheyAreWritten() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n" + get)
            let stream = try #require(client.readResponse())
            #expect(stream.header("Transfer-Encoding") == "chunked")
            #expect(stream.body == "event 1\nevent 2\nevent 3\n")
            #expect(client.readResponse()?.body == "hello", "a request pipelined behind a stream waits its turn")
        }
    }

    @Test func deferredResponse_arrivesLaterAndInOrder() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send("GET /deferred HTTP/1.1\r\nHost: t\r\n\r\n" + get)
            let later = try #require(client.readResponse())
            #expect(later.status == 201)
            #expect(later.body == "later")
            #expect(client.readResponse()?.body == "hello", "the pipelined request waited for the deferred one")
        }
    }

    @Test func beforeServing_getsAnExecutorPerLoop_whoseJobsRunOnThatLoopsThread() throws {
        let executors = Locked<[LoopExecutor]>([])
        let server = try HTTPServer(configuration: .makeForTesting(), handler: makeTestRouter().handle) { loops in
            executors.withLock { $0 = loops }
        }
        defer {
            server.shutdown()
            server.waitUntilStopped()
        }
        let loops = executors.withLock { $0 }
        #expect(loops.count == 2, "one per loop (the testing configuration runs two)")
        let names = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        for loop in loops {
            loop.run {
                names.withLock { $0.append(ThreadName.current) }
                done.signal()
                return false
            }
        }
        for _ in loops { #expect(done.wait(timeout: .now() + 5) == .success) }
        #expect(Set(names.withLock { $0 }) == ["http-loop-0", "http-loop-1"], "each job ran on its own loop's thread")
        // The loops still serve while and after they run jobs.
        let client = try RawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(client.readResponse()?.body == "hello")
    }

    @Test func gracefulShutdown_finishesInFlightRequestsAndStopsAccepting() throws {
        let server = try HTTPServer(configuration: .makeForTesting(), handler: makeTestRouter().handle)
        let busy = try RawClient(port: server.port)
        let idle = try RawClient(port: server.port)
        busy.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        usleep(50_000)
        server.shutdown()
        let response = try #require(busy.readResponse())
        #expect(response.status == 200)
        #expect(response.body == "slow")
        #expect(response.header("Connection") == "close")
        #expect(idle.waitForClose())
        server.waitUntilStopped()
        #expect(throws: SocketError.self) { try RawClient(port: server.port) }
    }

    @Test func thousandConcurrentKeepAliveConnections_areAllServed() throws {
        try withServer { server in
            let clients = try (0..<1000).map { _ in try RawClient(port: server.port) }
            for round in 0..<2 {
                for client in clients { client.send(get) }
                let served = clients.filter { $0.readResponse()?.status == 200 }.count
                #expect(served == 1000, "round \(round)")
            }
            #expect(server.statistics.snapshot.openConnections == 1000)
        }
    }
}

@Suite struct HostileClientTests {
    @Test func clientVanishingMidResponse_doesNotHurtTheServer() throws {
        var router = Router()
        let big = [UInt8](repeating: 65, count: 8 * 1024 * 1024)
        router.get("/big") { _ in Response(contentType: "text/plain", bytes: big) }
        router.get("/hello") { _ in Response(contentType: "text/plain", bytes: Array("hello".utf8)) }
        try withServer(router: router) { server in
            for _ in 0..<5 {
                let client = try RawClient(port: server.port)
                client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
                usleep(5_000)
            }  // each client closes with most of 8 MiB unsent: EPIPE or ECONNRESET, never SIGPIPE
            usleep(100_000)
            let client = try RawClient(port: server.port)
            client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(client.readResponse()?.body == "hello")
            // The vanished clients' connections close as their sends fail; under a sanitizer
            // or a loaded machine that can take a moment, so wait for it (bounded).
            let deadline = Date().addingTimeInterval(10)
            while server.statistics.snapshot.openConnections > 1 && Date() < deadline { usleep(10_000) }
            #expect(server.statistics.snapshot.openConnections == 1)
        }
    }

    @Test func garbageBytes_get400AndClose() throws {
        try withServer { server in
            let client = try RawClient(port: server.port)
            client.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 0x0D, 0x0A, 0x0D, 0x0A])  // a TLS hello
            #expect(client.readResponse()?.status == 400)
            #expect(client.waitForClose())
        }
    }
}
