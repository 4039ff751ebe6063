import Basics
import Synchronization
import Testing

@testable import HTTPLite

/// A connection keeps the answer a handler allowed to be repeated, and answers the very same
/// request bytes with it again (asking the guard each time), never a request that differs.
@Suite struct RepeatedRequestTests {
    typealias Harness = ConnectionStateMachineTests.Harness

    /// Says what each repeat gets (the kept answer once the queue is empty) and counts the repeats.
    final class Guard: RepeatGuard {
        enum Verdict {
            case refuse(Response)
            /// The handler takes the request, with "checked" as its sender.
            case handle
        }

        let verdicts: Mutex<[Verdict]>
        let repeats = Atomic<Int>(0)

        /// Whether repeats' answers say `X-Stage: repeat` (else they carry the first answer's fields).
        let marksRepeats: Bool

        init(_ verdicts: [Verdict] = [], marksRepeats: Bool = true) {
            self.verdicts = Mutex(verdicts)
            self.marksRepeats = marksRepeats
        }

        func fieldsForRepeats(of first: HTTPHeaders) -> HTTPHeaders {
            guard marksRepeats else { return first }
            var fields = first
            fields.replaceOrAdd(name: "X-Stage", value: "repeat")
            return fields
        }

        func verdict(onRepeatOf request: Request) -> RepeatVerdict {
            repeats.add(1, ordering: .relaxed)
            switch verdicts.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            case nil: return .sameAnswer
            case .refuse(let response): return .answer(response)
            case .handle:
                var checked = request
                checked.sender = "checked"
                return .handle(checked)
            }
        }
    }

    /// How many requests the handler took, and whether each repeated the one before.
    final class Count {
        var value = 0
        var repeatsPrevious: [Bool] = []
    }

    static let get = "GET /a?x=1 HTTP/1.1\r\nHost: t\r\n\r\n"

    /// A harness whose handler answers every request with `repeatGuard` and counts the requests it handles.
    static func harness(_ repeatGuard: Guard, handled: Count, configuration: ConnectionStateMachine.Configuration = .init()) -> Harness {
        var harness = Harness(configuration)
        harness.handler = { request in
            handled.value += 1
            handled.repeatsPrevious.append(request.repeatsPrevious)
            let body = "page of \(request.path)" + (request.sender.map { " \($0)" } ?? "")
            var response = Response(contentType: "text/plain", bytes: Array(body.utf8), headers: ["X-Stage": "first"])
            response.repeatGuard = repeatGuard
            return response
        }
        return harness
    }

    /// Each answer sent: its status line, its other lines but `Date` in any order, its body.
    struct Answer: Equatable {
        let status: String
        let fields: Set<String>
        let body: String
    }

    static func answers(_ sent: String) -> [Answer] {
        sent.components(separatedBy: "HTTP/1.1 ").dropFirst().map { answer in
            let parts = answer.components(separatedBy: "\r\n\r\n")
            let lines = parts[0].components(separatedBy: "\r\n")
            return Answer(
                status: lines[0], fields: Set(lines.dropFirst().filter { !$0.hasPrefix("Date: ") }), body: parts.dropFirst().joined())
        }
    }

    @Test func theSameBytes_getTheKeptAnswer_withTheFieldsForRepeats_withoutTheHandler() {
        let repeatGuard = Guard()
        let handled = Count()
        var harness = Self.harness(repeatGuard, handled: handled)
        #expect(harness.receive(Self.get) == [.handle("/a"), .log(status: 200), .write])
        #expect(harness.receive(Self.get) == [.handleRepeat("/a"), .log(status: 200), .write])
        #expect(
            harness.receive(Self.get + Self.get) == [
                .handleRepeat("/a"), .log(status: 200), .handleRepeat("/a"), .log(status: 200), .write,
            ])
        #expect(handled.value == 1 && repeatGuard.repeats.load(ordering: .relaxed) == 3)
        let answers = Self.answers(harness.sent)
        #expect(answers.count == 4 && answers[0].fields.contains("X-Stage: first") && answers[0].body == "page of /a")
        #expect(answers[1].status == "200 OK" && answers[1].body == answers[0].body)
        #expect(answers[1].fields == answers[0].fields.subtracting(["X-Stage: first"]).union(["X-Stage: repeat"]))
        #expect(answers[2] == answers[1] && answers[3] == answers[1])
        #expect(harness.sent.components(separatedBy: "\r\nDate: ").count == 5, "every answer has its date")
    }

    @Test func requestsThatDifferByAByte_orArriveInPieces_areHandled() {
        let handled = Count()
        var harness = Self.harness(Guard(), handled: handled)
        _ = harness.receive(Self.get)
        #expect(harness.receive("GET /a?x=2 HTTP/1.1\r\nHost: t\r\n\r\n") == [.handle("/a"), .log(status: 200), .write])
        #expect(harness.receive("GET /a?x=2 HTTP/1.1\r\nHost: T\r\n\r\n") == [.handle("/a"), .log(status: 200), .write])
        #expect(harness.receive("GET /a?x=2 HTTP/1.1\r\nHost: T\r\n\r\n") == [.handleRepeat("/a"), .log(status: 200), .write])
        let split = "GET /a?x=2 HTTP/1.1\r\nHost: T\r\n\r\n".split(separator: "\r\n\r\n")[0]
        #expect(harness.receive(String(split)).isEmpty, "part of the request: nothing yet")
        #expect(harness.receive("\r\n\r\n") == [.handle("/a"), .log(status: 200), .write], "a request read in pieces is parsed")
        #expect(handled.value == 4)
        #expect(handled.repeatsPrevious == [false, false, false, true], "as the connection saw each: the last repeats the one before")
    }

    @Test func theGuardsVerdicts_aRefusal_orTheHandler_replaceTheKeptAnswer() {
        let refusal = Response(status: .tooManyRequests, contentType: "text/plain", bytes: Array("slow down".utf8))
        let repeatGuard = Guard([.refuse(refusal), .handle])
        let handled = Count()
        var harness = Self.harness(repeatGuard, handled: handled)
        _ = harness.receive(Self.get)
        #expect(harness.receive(Self.get) == [.handleRepeat("/a"), .log(status: 429), .write])
        #expect(harness.receive(Self.get) == [.handle("/a"), .log(status: 200), .write], "a refusal is not kept: handled again")
        #expect(harness.receive(Self.get) == [.handleRepeat("/a"), .handle("/a"), .log(status: 200), .write])
        #expect(harness.receive(Self.get) == [.handleRepeat("/a"), .log(status: 200), .write], "the handler's new answer is kept")
        let answers = Self.answers(harness.sent)
        #expect(answers.map(\.status) == ["200 OK", "429 Too Many Requests", "200 OK", "200 OK", "200 OK"])
        #expect(answers[1].body == "slow down" && answers[3].body == "page of /a checked", "the handler got the guard's request")
        #expect(answers[4].body == "page of /a checked")
        #expect(handled.value == 3)
    }

    @Test func onlyBodilessUntracedGETs_onAConnectionThatStaysOpen_areKept() {
        let requests = [
            "HEAD /a HTTP/1.1\r\nHost: t\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nab",
            "GET /a HTTP/1.1\r\nHost: t\r\ntraceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\n\r\n",
            "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n",
        ]
        for request in requests {
            let handled = Count()
            var harness = Self.harness(Guard(), handled: handled)
            _ = harness.receive(request)
            _ = harness.receive(request)
            #expect(handled.value == 2, "\(request)")
        }
        let handled = Count()
        var closing = Self.harness(Guard(), handled: handled)
        _ = closing.receive("GET /a HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(closing.receive("GET /a HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").isEmpty, "lingering: dropped")

        var unguarded = Harness()
        _ = unguarded.receive(Self.get)
        #expect(unguarded.receive(Self.get) == [.handle("/a"), .log(status: 200), .write], "no guard: always handled")
    }

    @Test func keptAnswersShareOneBudget_pastItAnAnswerIsNotKept_untilAnotherIsLetGo() {
        var configuration = ConnectionStateMachine.Configuration()
        configuration.keptAnswers = KeptAnswerBudget(limit: 60)  // one answer (10 bytes) with its request (32 bytes)
        let handled = Count()
        var first = Self.harness(Guard(), handled: handled, configuration: configuration)
        var second = Self.harness(Guard(), handled: handled, configuration: configuration)
        _ = first.receive(Self.get)
        #expect(configuration.keptAnswers.bytesTaken == 42)
        _ = second.receive(Self.get)
        #expect(second.receive(Self.get) == [.handle("/a"), .log(status: 200), .write], "no room: not kept")
        #expect(first.receive(Self.get) == [.handleRepeat("/a"), .log(status: 200), .write])
        _ = first.receive("GET /b HTTP/1.1\r\nHost: t\r\n\r\n")  // another answer: the first is let go, then this one kept
        first.machine.socketFailed()
        _ = first.run()
        #expect(configuration.keptAnswers.bytesTaken == 0, "a closed connection keeps nothing")
        _ = second.receive(Self.get)
        #expect(second.receive(Self.get) == [.handleRepeat("/a"), .log(status: 200), .write], "room again: kept")
    }

    /// For any bytes, however split, a connection that keeps answers sends exactly what one that
    /// keeps none sends, when the handler's answer depends on the request alone: a repeat is only
    /// ever the same request. Random runs of requests (repeats likely, bodies, chunked ends,
    /// stray bytes, HEAD, HTTP/1.0, `close`), fed in random pieces, seeded.
    @Test func keepingAnswers_neverChangesWhatIsSent_forAnyBytesInAnyPieces() {
        let pool = [
            "GET /a HTTP/1.1\r\nHost: t\r\n\r\n", "GET /a?x=1 HTTP/1.1\r\nHost: t\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nab",
            "GET /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "0\r\n\r\n", "\r\n",
            "HEAD /a HTTP/1.1\r\nHost: t\r\n\r\n", "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n\r\nz",
            "GET /a HTTP/1.0\r\nHost: t\r\nConnection: keep-alive\r\n\r\n", "GET /a HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n",
        ]
        var random = SplitMix64(seed: 29)  // seeded, so a failing run is found again
        for run in 0..<3_000 {
            var text = "", pick = 0
            for _ in 0..<(1 + random.below(12)) {
                if text.isEmpty || random.below(3) == 0 { pick = random.below(pool.count) }  // else the same again
                text += pool[pick]
            }
            var pieces: [String] = []
            var rest = Substring(text)
            while !rest.isEmpty {
                let count = min(rest.count, 1 + random.below(40))
                pieces.append(String(rest.prefix(count)))
                rest = rest.dropFirst(count)
            }
            let keeping = Self.echoing(repeatGuard: Guard(marksRepeats: false)), plain = Self.echoing(repeatGuard: nil)
            let sent = [keeping, plain].map { start in
                var harness = start
                for piece in pieces where !harness.machine.isClosed { _ = harness.receive(piece) }
                return Self.withoutDates(harness.sent)
            }
            #expect(sent[0] == sent[1], "run \(run): \(pieces)")
            if sent[0] != sent[1] { break }  // one run's bytes say enough
        }
    }

    /// `text`'s bytes with each `Date` field's value (29 bytes) blanked.
    static func withoutDates(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        let marker = Array("\r\nDate: ".utf8)
        var index = 0
        while index + marker.count + 29 <= bytes.count {
            guard bytes[index] == marker[0], bytes[index..<index + marker.count].elementsEqual(marker) else {
                index += 1
                continue
            }
            for offset in 0..<29 { bytes[index + marker.count + offset] = UInt8(ascii: "D") }
            index += marker.count + 29
        }
        return bytes
    }

    /// A harness whose handler's answer depends on the request alone, with `repeatGuard` (nil: none).
    static func echoing(repeatGuard: Guard?) -> Harness {
        var harness = Harness()
        harness.handler = { request in
            let echo = "\(request.method.rawValue) \(request.path) \(request.query.pairs.count) \(request.version) \(request.body.count)"
            var response = Response(contentType: "text/plain", bytes: Array(echo.utf8))
            response.repeatGuard = repeatGuard
            return response
        }
        return harness
    }

    @Test func aChunkedRequestWhoseEndCameLater_isNotKept_soItsEndIsNeverTakenForARequest() {
        let handled = Count()
        var harness = Self.harness(Guard(), handled: handled)
        #expect(harness.receive("GET /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n").isEmpty)
        #expect(harness.receive("0\r\n\r\n") == [.handle("/a"), .log(status: 200), .write])
        // Had the last bytes read been kept as "the request", this would be answered as a repeat.
        #expect(harness.receive("0\r\n\r\n") == [.countMalformedRequest, .log(status: 400), .write, .shutdownWrite])
        #expect(handled.value == 1)
    }

    @Test func aKeptAnswer_isLetGo_afterASecondWithoutRepeats_andAtShutdown() {
        let handled = Count()
        var harness = Self.harness(Guard(), handled: handled)
        _ = harness.receive(Self.get)
        _ = harness.advance(to: 1_999)
        #expect(harness.receive(Self.get) == [.handleRepeat("/a"), .log(status: 200), .write])
        _ = harness.advance(to: 2_999)
        #expect(harness.receive(Self.get) == [.handle("/a"), .log(status: 200), .write], "idle for a second: let go")

        harness.isServerShuttingDown = true  // the server began shutting down; this loop has not heard yet
        #expect(harness.receive(Self.get) == [.handleRepeat("/a"), .log(status: 200), .write, .shutdownWrite])
        #expect(Self.answers(harness.sent).last?.fields.contains("Connection: close") == true)

        var draining = Self.harness(Guard(), handled: handled)
        _ = draining.receive(Self.get)
        draining.isWritable = false  // its answer still waits to be sent: the shutdown does not close it at once
        _ = draining.receive(Self.get)
        draining.machine.shutdownBegan()
        #expect(draining.receive(Self.get).first == .handle("/a"), "a connection told of the shutdown handles every request")
    }
}
