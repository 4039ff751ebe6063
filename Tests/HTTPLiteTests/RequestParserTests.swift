import Foundation
import Testing

@testable import HTTPLite

@Suite struct RequestParserTests {
    let simpleGet = "GET /orders?filter=pending&q=j%C3%B6hn+smith HTTP/1.1\r\nHost: a\r\nX-Many: 1\r\nx-many: 2\r\n\r\n"

    @Test func simpleGet_parsesPathQueryAndHeaders() throws {
        let (outcomes, requests) = RequestParser.feed(Array(simpleGet.utf8))
        #expect(outcomes == [.request(method: .get, path: "/orders", body: "")])
        let request = try #require(requests.first)
        #expect(request.query.pairs.map(\.name) == ["filter", "q"])
        #expect(request.query["q"] == "jöhn smith")
        #expect(request.headers["HOST"] == "a")
        #expect(request.headers.values(for: "X-MANY") == ["1", "2"])
        #expect(request.version == .http1_1)
    }

    @Test func headerNames_keepTheirSpelling_usualOrNot() throws {
        let head =
            "GET / HTTP/1.1\r\nHost: a\r\nx-session-id: s\r\nAccept-Encoding: gzip\r\nACCEPT-LANGUAGE: de\r\n"
            + "Accept-Encodinh: x\r\nCookie: c=1\r\nX-Session-IDs: t\r\n\r\n"
        let (_, requests) = RequestParser.feed(Array(head.utf8))
        let request = try #require(requests.first)
        #expect(
            request.headers.map(\.name) == [
                "Host", "x-session-id", "Accept-Encoding", "ACCEPT-LANGUAGE", "Accept-Encodinh", "Cookie", "X-Session-IDs",
            ])
        #expect(request.headers.map(\.value) == ["a", "s", "gzip", "de", "x", "c=1", "t"])
        #expect(request.headers["X-Session-ID"] == "s" && request.headers["accept-language"] == "de")
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func fragmentedInput_parsesTheSameAsWhole(fragmentSize: Int) {
        let text =
            simpleGet + "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
            + "PUT /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n"
        let whole = RequestParser.feed(text)
        #expect(whole.count == 3)
        #expect(RequestParser.feed(text, fragmentSize: fragmentSize) == whole)
    }

    @Test func pipelinedRequests_comeOutInOrder() {
        let text = "GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\nGET /c HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(RequestParser.feed(text).map { if case .request(_, let path, _) = $0 { path } else { "" } } == ["/a", "/b", "/c"])
    }

    @Test func chunkedBody_isDecoded() {
        let text = "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        #expect(RequestParser.feed(text) == [.request(method: .post, path: "/c", body: "hello world")])
    }

    @Test func expectContinue_promptsOnceBeforeTheBody() {
        let head = "POST /u HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"
        #expect(RequestParser.feed(head) == [.continueExpected])
        #expect(RequestParser.feed(head + "abc") == [.request(method: .post, path: "/u", body: "abc")])
        #expect(RequestParser.feed(head + "abc", fragmentSize: 1).first == .continueExpected)
    }

    @Test func http10_withoutHost_isAccepted() {
        #expect(RequestParser.feed("GET / HTTP/1.0\r\n\r\n") == [.request(method: .get, path: "/", body: "")])
    }

    @Test func leadingEmptyLines_areIgnored() {
        #expect(RequestParser.feed("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", fragmentSize: 1).count == 1)
    }

    @Test func absoluteFormTarget_usesItsPath() {
        let outcomes = RequestParser.feed("GET http://example.com/health?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(outcomes == [.request(method: .get, path: "/health", body: "")])
    }

    /// RFC 9112 §3.2.2: the target's authority is the host the request names, whatever its Host says.
    @Test func absoluteFormTarget_itsAuthorityReplacesTheHostField() throws {
        let (_, requests) = RequestParser.feed(Array("GET http://Other.example:8080/orders HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        let request = try #require(requests.first)
        #expect(request.headers.values(for: "Host") == ["Other.example:8080"])
    }

    @Test(arguments: ["localhost", "localhost:8080", "127.0.0.1:1", "[::1]:8080", "[::1]", "api.example", "xn--bcher-kva.example:443", ""])
    func validHosts_areAccepted(host: String) {
        #expect(RequestParser.feed("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n") == [.request(method: .get, path: "/", body: "")])
    }

    @Test func encodedSlash_staysWithinItsSegment() throws {
        let (_, requests) = RequestParser.feed(Array("GET /orders%2Fo-000001%2f?q=a%2Fb HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        let request = try #require(requests.first)
        #expect(request.path == "/orders%2Fo-000001%2F")
        #expect(request.query.pairs == [.init(name: "q", value: "a/b")])
    }

    @Test func percentDecoding_decodesPathButKeepsPlus() throws {
        let (_, requests) = RequestParser.feed(Array("GET /a%20b+c?x=%2B+y&flag&=v HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        let request = try #require(requests.first)
        #expect(request.path == "/a b+c")
        #expect(request.query.pairs == [.init(name: "x", value: "+ y"), .init(name: "flag", value: ""), .init(name: "", value: "v")])
    }

    @Test(arguments: [
        ("GET /a%zz HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // bad escape
        ("GET /a%00 HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // NUL
        ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),  // two Hosts
        ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // double space
        ("GET / HTTP/1.1 \r\nHost: a\r\n\r\n", 400),
        ("GET /\r\nHost: a\r\n\r\n", 400),  // HTTP/0.9 style
        ("GET noslash HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET /x#frag HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET / HTTX/1.1\r\nHost: a\r\n\r\n", 400),
        ("G@T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET / HTTP/1.1\nHost: a\r\n\r\n", 400),  // bare LF
        ("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", 400),  // bare CR
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),  // space before colon
        ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),  // obs-fold
        ("GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{1}b\r\n\r\n", 400),  // control in value
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1e3\r\n\r\n", 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding:\r\n\r\nhello", 400),  // empty TE beside CL
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: ,\r\n\r\nhello", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ,\r\n\r\n", 400),  // names no coding
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2 zz\r\nab\r\n0\r\n\r\n", 400),  // junk after size
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n", 501),
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505),
        ("POST / HTTP/1.1\r\nHost: a\r\nExpect: tea\r\n\r\n", 417),
        ("GET / HTTP/1.1\r\nHost: localhost:abc\r\n\r\n", 400),  // a port that is no number
        ("GET / HTTP/1.1\r\nHost: localhost:65536\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: user@localhost\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer x\r\nAuthorization: Bearer y\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nOrigin: https://a.example\r\norigin: https://b.example\r\n\r\n", 400),
        ("GET http://user@a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // user information in the authority
        ("GET http:///x HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // no authority
    ])
    func badInput_getsItsStatus(text: String, status: Int) {
        #expect(RequestParser.feed(text) == [.failed(status: status)])
        #expect(RequestParser.feed(text, fragmentSize: 1) == [.failed(status: status)])
    }

    /// A query parameter that does not decode is refused by name once the head is in; the
    /// connection goes on when the body can be skipped, as for any refusal from the head.
    @Test(arguments: [
        ("q=%C3%28", "q", "The value of 'q' holds bytes that are not UTF-8 once decoded."),
        ("filter=pending&q=50%", "q", "The value of 'q' holds a '%' not followed by two hex digits."),
        ("q=a%2x", "q", "The value of 'q' holds a '%' not followed by two hex digits."),
        ("a=1&q%20x=%00", "q x", "The value of 'q x' holds an encoded NUL (%00)."),
        ("li%zzmit=5", "li%zzmit", "The name of the query parameter 'li%zzmit' holds a '%' not followed by two hex digits."),
    ])
    func aQueryParameterThatDoesNotDecode_isRefusedByName(query: String, parameter: String, detail: String) throws {
        let requests =
            "GET /orders?\(query) HTTP/1.1\r\nHost: a\r\n\r\n"
            + "POST /orders?\(query) HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET /next HTTP/1.1\r\nHost: a\r\n\r\n"
        let expected: [ParseOutcome] = [
            .refused(status: 400, keepsConnection: true), .refused(status: 400, keepsConnection: true),
            .request(method: .get, path: "/next", body: ""),
        ]
        #expect(RequestParser.feed(requests) == expected)
        #expect(RequestParser.feed(requests, fragmentSize: 1) == expected)
        var found: MalformedQuery?
        let parsed = Array(query.utf8).withUnsafeBufferPointer { RequestLine.parseQuery($0, malformed: &found) }
        let malformed = try #require(found)
        #expect(parsed.isEmpty && malformed.parameter == parameter && malformed.detail == detail)
        let problem = try #require(
            JSONSerialization.jsonObject(with: Data(ProblemJSON.encode(malformed.httpError))) as? [String: Any])
        #expect(problem["parameter"] as? String == parameter && problem["code"] as? String == "invalid-parameter")
        #expect(throws: malformed) { try QueryParameters(parsing: query) }
    }

    /// A large body is held once, at its size: not in a buffer grown by doubling, then copied.
    @Test func aLargeBody_arrivesInAnArrayOfItsSize_andTheBufferIsLetGo() throws {
        let body = String(repeating: "x", count: 300_000)
        let (_, requests) = RequestParser.feed(
            Array("POST /import HTTP/1.1\r\nHost: a\r\nContent-Length: 300000\r\n\r\n\(body)".utf8), fragmentSize: 65536)
        let request = try #require(requests.first)
        #expect(request.body.count == 300_000 && request.body.capacity < 300_000 + 64)
        var buffer = InboundBuffer()
        Array(repeating: UInt8(0), count: 300_000).withUnsafeBytes { buffer.append($0) }
        buffer.consume(300_000)
        buffer.compact()
        #expect(buffer.bytes.capacity <= InboundBuffer.keptCapacity, "an idle connection keeps no upload-sized buffer")
    }

    @Test func identicalRepeatedContentLength_isAccepted() {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\nok"
        #expect(RequestParser.feed(text) == [.request(method: .post, path: "/", body: "ok")])
    }

    @Test func limits_eachHaveTheirStatus() {
        var limits = HTTPLimits()
        limits.maxRequestLineLength = 64
        limits.maxHeaderBytes = 256
        limits.maxHeaderCount = 5
        limits.maxBodyBytes = 10
        let longLine = "GET /" + String(repeating: "a", count: 100) + " HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(RequestParser.feed(longLine, limits: limits) == [.failed(status: 414)])
        // The 414 comes before the line ends: the client need not send the rest.
        #expect(RequestParser.feed(String(longLine.prefix(80)), limits: limits) == [.failed(status: 414)])
        let bigHeader = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "b", count: 300) + "\r\n\r\n"
        #expect(RequestParser.feed(bigHeader, limits: limits) == [.failed(status: 431)])
        let manyHeaders = "GET / HTTP/1.1\r\nHost: a\r\n" + (1...5).map { "X\($0): v\r\n" }.joined() + "\r\n"
        #expect(RequestParser.feed(manyHeaders, limits: limits) == [.failed(status: 431)])
        let bigBody = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n"
        #expect(RequestParser.feed(bigBody, limits: limits) == [.failed(status: 413)])
        let bigChunks = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n"
        #expect(RequestParser.feed(bigChunks, limits: limits) == [.failed(status: 413)])
        let hugeChunkSize = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n"
        #expect(RequestParser.feed(hugeChunkSize, limits: limits) == [.failed(status: 400)])
    }

    @Test func keepAlive_followsVersionAndConnectionHeader() throws {
        func request(_ text: String) throws -> Request { try #require(RequestParser.feed(Array(text.utf8)).requests.first) }
        #expect(try request("GET / HTTP/1.1\r\nHost: a\r\n\r\n").wantsKeepAlive)
        #expect(try !request("GET / HTTP/1.1\r\nHost: a\r\nConnection: Close\r\n\r\n").wantsKeepAlive)
        #expect(try !request("GET / HTTP/1.0\r\n\r\n").wantsKeepAlive)
        #expect(try request("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").wantsKeepAlive)
    }
}

/// The word-at-a-time check of header values agrees with the byte-by-byte one.
@Suite struct FieldValueCheckTests {
    @Test func agreesWithTheByteCheck_onEveryByteAndRandomValues() {
        func agree(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { HTTPSyntax.isFieldValue($0) } == bytes.allSatisfy(HTTPSyntax.isFieldValueCharacter)
        }
        // Every byte value at each place of clean values of 1 to 24 bytes (shorter than a
        // word, whole words, and a last word read over the one before).
        for byte in UInt8.min...UInt8.max {
            for count in 1...24 {
                for place in 0..<count {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: count)
                    value[place] = byte
                    #expect(agree(value), "\(byte) at \(place) of \(count)")
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...90, using: &generator)
            let clean = (0..<count).map { _ in UInt8.random(in: 0x20...0xFF, using: &generator) }.map { $0 == 0x7F ? 0x7E : $0 }
            #expect(agree(clean))
            var dirty = clean
            if !dirty.isEmpty { dirty[Int.random(in: 0..<dirty.count, using: &generator)] = UInt8.random(in: 0...0x1F, using: &generator) }
            #expect(agree(dirty))
            #expect(agree((0..<count).map { _ in UInt8.random(in: 0...0xFF, using: &generator) }))
        }
    }
}
