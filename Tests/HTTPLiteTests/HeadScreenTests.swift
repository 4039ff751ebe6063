import Testing

@testable import HTTPLite

/// A request with a body is judged on its head: a refusal is answered before a byte of the
/// body is read, `Expect: 100-continue` gets the refusal instead of `100`, and the body of a
/// refused request is skipped (small) or never read (the connection closes).
@Suite struct HeadScreenTests {
    /// Refuses every path but `/ok` with 401; `/ok` takes bodies up to 10 bytes.
    static let screen: HeadScreen = { head in
        guard head.path == "/ok" else {
            return .refuse(HTTPError(.unauthorized, code: "unauthorized", detail: "no key").response)
        }
        #expect(head.body.isEmpty, "the screen sees the head only")
        return .accept(maxBodyBytes: 10)
    }

    @Test func aRefusal_comesFromTheHead_beforeTheBody_orItsContinue() {
        let head = "POST /no HTTP/1.1\r\nHost: a\r\nContent-Length: 60000000\r\n"
        #expect(RequestParser.feed(head + "\r\n", headScreen: Self.screen) == [.refused(status: 401, keepsConnection: false)])
        #expect(
            RequestParser.feed(head + "Expect: 100-continue\r\n\r\n", headScreen: Self.screen) == [
                .refused(status: 401, keepsConnection: false)
            ], "no 100 Continue")
        let chunked = "POST /no HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(RequestParser.feed(chunked, headScreen: Self.screen) == [.refused(status: 401, keepsConnection: false)])
    }

    @Test func aRefusedSmallBody_isSkipped_andTheNextRequestFollows() {
        let text = "POST /no HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhelloGET /next HTTP/1.1\r\nHost: a\r\n\r\n"
        for fragmentSize in [nil, 1, 3] {
            #expect(
                RequestParser.feed(text, fragmentSize: fragmentSize, headScreen: Self.screen) == [
                    .refused(status: 401, keepsConnection: true), .request(method: .get, path: "/next", body: ""),
                ])
        }
        let waiting = "POST /no HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
        #expect(
            RequestParser.feed(waiting, headScreen: Self.screen) == [.refused(status: 401, keepsConnection: false)],
            "a client waiting for 100 may never send its body: the connection cannot be reused")
    }

    @Test func anAcceptedHead_setsTheBodyLimit_andPromptsContinue() {
        let ok = "POST /ok HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"
        #expect(RequestParser.feed(ok, headScreen: Self.screen) == [.continueExpected])
        #expect(RequestParser.feed(ok + "body", headScreen: Self.screen) == [.request(method: .post, path: "/ok", body: "body")])
        let large = "POST /ok HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n"
        #expect(RequestParser.feed(large, headScreen: Self.screen) == [.failed(status: 413)])
        #expect(
            RequestParser.feed("GET /no HTTP/1.1\r\nHost: a\r\n\r\n", headScreen: Self.screen) == [
                .request(method: .get, path: "/no", body: "")
            ],
            "a request without a body is the handler's to judge")
    }

    @Test func theConnection_answersARefusalAtOnce_thenClosesWithoutReadingTheBody() {
        var harness = ConnectionStateMachineTests.Harness(.init(headScreen: Self.screen))
        let steps = harness.receive("POST /no HTTP/1.1\r\nHost: a\r\nContent-Length: 60000000\r\nExpect: 100-continue\r\n\r\n")
        #expect(steps == [.log(status: 401), .write, .shutdownWrite])
        #expect(harness.statuses == ["401"], "no 100 Continue first")
        #expect(harness.sent.contains("Connection: close"))
        #expect(harness.receive(String(repeating: "x", count: 100_000)).isEmpty, "the body is drained, not parsed")
    }

    @Test func theConnection_skipsARefusedSmallBody_andServesTheNextRequest() {
        var harness = ConnectionStateMachineTests.Harness(.init(headScreen: Self.screen))
        #expect(harness.receive("POST /no HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n") == [.log(status: 401), .write])
        #expect(harness.receive("0123456789GET /next HTTP/1.1\r\nHost: a\r\n\r\n") == [.handle("/next"), .log(status: 200), .write])
        #expect(harness.sent.hasPrefix("HTTP/1.1 401 ") && harness.sent.contains("}HTTP/1.1 200 "), "the 401's problem, then the 200")
        #expect(!harness.sent.contains("Connection: close"))
    }
}
