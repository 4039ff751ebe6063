import Testing

@testable import HTTPLite

/// The connection's life without sockets or clocks: bytes and times go in, actions come out.
@Suite struct ConnectionStateMachineTests {
    /// An action as a test compares it.
    enum Step: Equatable {
        case handle(String)
        case write
        case startDeferred
        case startStream
        case endStream
        case log(status: Int)
        case countMalformedRequest
        case shutdownWrite
        case close
        case setInterest(Interest)
    }

    /// A machine and what a loop around it would have done: the bytes "sent", the steps taken.
    struct Harness {
        var machine: ConnectionStateMachine
        var encoder = ResponseEncoder()
        var now: Int64 = 1_000
        var sent = ""
        /// Answers each request; the default echoes the path.
        var handler: (Request) -> Response = { .init(contentType: "text/plain", bytes: Array($0.path.utf8)) }
        /// Whether the "socket" takes output (false: every write would block).
        var isWritable = true

        init(_ configuration: ConnectionStateMachine.Configuration = .init()) {
            machine = ConnectionStateMachine(configuration: configuration, now: 1_000)
        }

        mutating func receive(_ text: String) -> [Step] {
            Array(text.utf8).withUnsafeBytes { machine.bytesReceived($0, now: now) }
            return run()
        }

        /// Performs actions as the event loop does, until the machine waits.
        mutating func run() -> [Step] {
            var steps: [Step] = []
            while true {
                switch machine.nextAction(now: now, encoder: &encoder) {
                case .wait: return steps
                case .handle(let request):
                    steps.append(.handle(request.path))
                    machine.responseReady(handler(request), to: request, handlerStarted: 0, isServerShuttingDown: false, encoder: &encoder)
                case .write:
                    steps.append(.write)
                    guard isWritable else {
                        machine.writeBlocked()
                        continue
                    }
                    let bytes = machine.withPendingOutput { Array($0) + Array($1) + Array($2) }
                    sent += String(decoding: bytes, as: UTF8.self)
                    machine.wrote(bytes.count, now: now)
                case .startDeferred: steps.append(.startDeferred)
                case .startStream: steps.append(.startStream)
                case .endStream: steps.append(.endStream)
                case .log(let record): steps.append(.log(status: record.status))
                case .countMalformedRequest: steps.append(.countMalformedRequest)
                case .shutdownWrite: steps.append(.shutdownWrite)
                case .close: steps.append(.close)
                case .setInterest(let interest): steps.append(.setInterest(interest))
                }
            }
        }

        mutating func advance(to time: Int64) -> [Step] {
            now = time
            machine.timerFired(now: now, encoder: &encoder)
            return run()
        }

        /// Status lines sent so far, in order.
        var statuses: [String] {
            sent.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }.map { String($0.dropFirst(9).prefix(3)) }
        }
    }

    static let get = "GET /a HTTP/1.1\r\nHost: t\r\n\r\n"

    @Test func aRequest_isHandledAnsweredAndLogged_thenTheConnectionWaits() {
        var harness = Harness()
        #expect(harness.receive(Self.get) == [.handle("/a"), .log(status: 200), .write])
        #expect(harness.statuses == ["200"])
        #expect(harness.sent.hasSuffix("\r\n\r\n/a"))
        #expect(!harness.machine.isClosed)
        #expect(harness.machine.isIdle)
    }

    @Test func pipelinedRequests_areAnsweredInOrder_inOneWrite() {
        var harness = Harness()
        let steps = harness.receive(Self.get + "GET /b HTTP/1.1\r\nHost: t\r\n\r\nGET /c HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(steps == [.handle("/a"), .log(status: 200), .handle("/b"), .log(status: 200), .handle("/c"), .log(status: 200), .write])
        #expect(harness.sent.components(separatedBy: "\r\n\r\n").dropFirst().map { $0.prefix(2) } == ["/a", "/b", "/c"])
    }

    @Test func aRequestInFragments_waitsForTheWholeHead() {
        var harness = Harness()
        #expect(harness.receive("GET /a HT").isEmpty)
        #expect(harness.receive("TP/1.1\r\nHost: t\r\n").isEmpty)
        #expect(harness.receive("\r\n") == [.handle("/a"), .log(status: 200), .write])
    }

    @Test func connectionClose_answersThenLingers_untilThePeerCloses() {
        var harness = Harness()
        let steps = harness.receive("GET /a HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(steps == [.handle("/a"), .log(status: 200), .write, .shutdownWrite])
        #expect(harness.sent.contains("Connection: close"))
        #expect(harness.machine.readsInput, "lingering drains what the client still sends")
        #expect(harness.receive("more bytes the client sent").isEmpty, "dropped, not parsed")
        harness.machine.peerClosed()
        #expect(harness.run() == [.close])
        #expect(harness.machine.isClosed)
    }

    @Test func lingering_endsAtItsTimeout() {
        var harness = Harness(.init(lingerTimeout: 2_000))
        _ = harness.receive("GET /a HTTP/1.0\r\n\r\n")  // HTTP/1.0 without keep-alive closes
        #expect(harness.advance(to: 2_999).isEmpty)
        #expect(harness.advance(to: 3_000) == [.close])
    }

    @Test func aClientThatHalfClosesAfterItsRequest_isAnsweredThenClosed_withoutLingering() {
        var harness = Harness()
        Array(Self.get.utf8).withUnsafeBytes { harness.machine.bytesReceived($0, now: 1_000) }
        harness.machine.peerClosed()
        #expect(harness.run() == [.handle("/a"), .log(status: 200), .write, .close])
        #expect(harness.statuses == ["200"])
    }

    @Test func aMalformedRequest_gets400_isCounted_andTheConnectionCloses() {
        var harness = Harness()
        let steps = harness.receive("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n" + Self.get)
        #expect(steps == [.countMalformedRequest, .log(status: 400), .write, .shutdownWrite])
        #expect(harness.statuses == ["400"], "the pipelined request after it is not served")
    }

    @Test func anIdleConnection_closesAtTheIdleTimeout() {
        var harness = Harness(.init(idleTimeout: 60_000))
        _ = harness.receive(Self.get)
        #expect(harness.advance(to: 60_999).isEmpty)
        #expect(harness.advance(to: 61_000) == [.close])
    }

    @Test func aSlowHead_gets408AtTheHeaderTimeout() {
        var harness = Harness(.init(headerReadTimeout: 10_000))
        #expect(harness.receive("GET /a HTTP/1.1\r\nHost").isEmpty)
        #expect(harness.advance(to: 10_999).isEmpty)
        #expect(harness.advance(to: 11_000) == [.log(status: 408), .write, .shutdownWrite])
        #expect(harness.statuses == ["408"])
    }

    @Test func aBodyTrickledBelowTheMinimumRate_gets408AfterTheGracePeriod() {
        var harness = Harness(.init(bodyReadTimeout: 60_000, minBodyBytesPerSecond: 100, minBodyRateGrace: 5_000))
        #expect(harness.receive("POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\nx").isEmpty)
        #expect(harness.advance(to: 1_500).isEmpty, "the timer starts watching the body")
        for second in 1...5 {
            harness.now = 1_500 + Int64(second) * 1_000
            #expect(harness.receive("xx").isEmpty)  // 2 bytes a second
        }
        #expect(harness.advance(to: 6_600) == [.log(status: 408), .write, .shutdownWrite])
    }

    @Test func aBodyAtAGoodRate_isNotCutOff_butAWholeBodyIsBounded() {
        var harness = Harness(.init(bodyReadTimeout: 20_000, minBodyBytesPerSecond: 100, minBodyRateGrace: 5_000))
        _ = harness.receive("POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
        _ = harness.advance(to: 1_000)
        for second in 1...19 {
            harness.now = 1_000 + Int64(second) * 1_000
            _ = harness.receive(String(repeating: "x", count: 500))
            #expect(harness.advance(to: harness.now).isEmpty)
        }
        #expect(harness.advance(to: 21_000) == [.log(status: 408), .write, .shutdownWrite])
    }

    @Test func aDeferredResponse_holdsPipelinedRequests_untilItArrives() {
        var harness = Harness()
        harness.handler = { request in request.path == "/slow" ? .deferred { _ in } : .init(contentType: "text/plain", bytes: [65]) }
        let steps = harness.receive("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n" + Self.get)
        #expect(steps == [.handle("/slow"), .startDeferred, .setInterest(.hangUp)])
        #expect(!harness.machine.readsInput, "while the answer is made, readiness means a hang-up")
        harness.machine.deferredResponseReady(.init(status: .created, body: .bytes([])), encoder: &harness.encoder)
        #expect(harness.run() == [.log(status: 201), .handle("/a"), .log(status: 200), .write, .setInterest(.reading)])
        #expect(harness.statuses == ["201", "200"])
    }

    @Test func aClientLeavingDuringADeferredResponse_closes() {
        var harness = Harness()
        harness.handler = { _ in .deferred { _ in } }
        _ = harness.receive(Self.get)
        harness.machine.peerClosed()
        #expect(harness.run() == [.close])
    }

    @Test func aStream_sendsChunksAsTheyCome_thenServesTheNextRequest() {
        var harness = Harness()
        harness.handler = { request in
            request.path == "/live"
                ? Response(headers: ["Content-Type": "text/event-stream"], body: .stream { _ in })
                : .init(contentType: "text/plain", bytes: [66])
        }
        let steps = harness.receive("GET /live HTTP/1.1\r\nHost: t\r\n\r\n" + Self.get)
        #expect(steps == [.handle("/live"), .log(status: 200), .startStream, .write, .setInterest(.hangUp)])
        #expect(harness.sent.contains("Transfer-Encoding: chunked"))
        harness.machine.streamChunk(Array("data: 1\n\n".utf8))
        #expect(harness.run() == [.write])
        #expect(harness.sent.hasSuffix("9\r\ndata: 1\n\n\r\n"))
        harness.machine.streamFinished()
        #expect(harness.run() == [.endStream, .handle("/a"), .log(status: 200), .write, .setInterest(.reading)])
        #expect(harness.sent.contains("0\r\n\r\nHTTP/1.1 200"))
    }

    @Test func aStreamTheClientCannotKeepUpWith_isDropped() {
        var harness = Harness(.init(streamBacklogLimit: 100))
        harness.handler = { _ in Response(body: .stream { _ in }) }
        _ = harness.receive(Self.get)
        harness.isWritable = false
        harness.machine.streamChunk(Array(repeating: 0x61, count: 50))
        #expect(harness.run() == [.write, .setInterest([.hangUp, .write])])
        harness.machine.streamChunk(Array(repeating: 0x61, count: 60))
        #expect(harness.run() == [.close])
    }

    @Test func blockedOutput_waitsForWritability_andStopsReadingPastTheHighWater() {
        var harness = Harness(.init(outputHighWater: 64))
        harness.isWritable = false
        harness.handler = { _ in .init(contentType: "text/plain", bytes: Array(repeating: 0x61, count: 100)) }
        #expect(harness.receive(Self.get) == [.handle("/a"), .log(status: 200), .write, .setInterest(.write)])
        #expect(harness.run().isEmpty, "no write is attempted until the socket is writable")
        harness.isWritable = true
        harness.machine.becameWritable()
        #expect(harness.run() == [.write, .setInterest(.reading)])
    }

    @Test func stalledOutput_closesAtTheIdleTimeout() {
        var harness = Harness(.init(idleTimeout: 5_000))
        harness.isWritable = false
        _ = harness.receive(Self.get)
        #expect(harness.advance(to: 5_999).isEmpty)
        #expect(harness.advance(to: 6_000) == [.close])
    }

    @Test func shutdown_closesAnIdleConnection_endsAStream_andSaysCloseOnTheNextResponse() {
        var idle = Harness()
        _ = idle.receive(Self.get)
        idle.machine.shutdownBegan()
        #expect(idle.run() == [.close])

        var streaming = Harness()
        streaming.handler = { _ in Response(body: .stream { _ in }) }
        _ = streaming.receive(Self.get)
        streaming.machine.shutdownBegan()
        #expect(streaming.run() == [.endStream, .write, .shutdownWrite, .setInterest(.reading)], "lingering reads again")
        #expect(streaming.sent.hasSuffix("0\r\n\r\n"))

        var midRequest = Harness()
        _ = midRequest.receive("GET /a HTTP/1.1\r\n")
        midRequest.machine.shutdownBegan()
        #expect(midRequest.run().isEmpty, "a request being read may still finish")
        #expect(midRequest.receive("Host: t\r\n\r\n") == [.handle("/a"), .log(status: 200), .write, .shutdownWrite])
        #expect(midRequest.sent.contains("Connection: close"))
    }

    /// A body in parts (a page's own bytes, then a large part it shares) goes out as one
    /// body: its length the sum, its parts in order, behind a pipelined answer as well; none
    /// of it for HEAD.
    @Test func aBodyInParts_isSentWhole_inOrder() {
        let lead = Array(#"{"items":[]"#.utf8)
        let tail =
            Array(#","sections":["#.utf8) + Array(repeating: UInt8(ascii: "1"), count: OutboundBytes.inPlaceMinimum) + Array("]}".utf8)
        let whole = String(decoding: lead + tail, as: UTF8.self)
        var harness = Harness()
        harness.handler = { _ in Response(headers: ["Content-Type": "application/json"], body: .parts([lead, tail])) }
        _ = harness.receive(Self.get + Self.get)
        let answers = harness.sent.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst()
        #expect(answers.count == 2)
        #expect(answers.allSatisfy { $0.contains("Content-Length: \(lead.count + tail.count)\r\n") && $0.hasSuffix("\r\n\r\n" + whole) })
        _ = harness.receive("HEAD /a HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(harness.sent.hasSuffix("Content-Length: \(lead.count + tail.count)\r\n\r\n"))
    }

    @Test func aHeadRequest_getsTheHeadOnly() {
        var harness = Harness()
        _ = harness.receive("HEAD /abc HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(harness.sent.contains("Content-Length: 4"))
        #expect(harness.sent.hasSuffix("\r\n\r\n"))
    }
}
