import Testing

@testable import HTTPLite

@Suite struct ResponseEncoderTests {
    private func encode(_ response: Response, includeBody: Bool = true, connection: ResponseEncoder.ConnectionField = .omitted) -> String {
        var encoder = ResponseEncoder()
        var output: [UInt8] = []
        guard case .bytes(let body) = response.body else { return "" }
        encoder.append(response, body: body, includeBody: includeBody, connection: connection, to: &output)
        // The Date line changes every second; replace it for comparison.
        return String(decoding: output, as: UTF8.self)
            .replacing(/Date: [^\r]+/, with: "Date: D")
    }

    @Test func fixedBody_hasExactBytes() {
        let text = encode(.json(Array("{}".utf8)))
        #expect(
            text
                == "HTTP/1.1 200 OK\r\nServer: HTTPLite\r\nX-Content-Type-Options: nosniff\r\nDate: D\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
        )
    }

    @Test(arguments: [1, 9, 15, 16, 255, 256, 600, 4_095, 4_096, 70_000])
    func aChunk_isItsHexSize_CRLF_itsBytes_CRLF(size: Int) {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
        #expect(ResponseEncoder.chunk(bytes) == Array((String(size, radix: 16) + "\r\n").utf8) + bytes + Array("\r\n".utf8))
    }

    @Test func anEmptyChunk_isNotWritten_forItWouldEndTheBody() {
        #expect(ResponseEncoder.chunk([]).isEmpty)
    }

    @Test func head_keepsContentLengthButDropsBody() {
        let text = encode(.json(Array("{}".utf8)), includeBody: false, connection: .close)
        #expect(text.hasSuffix("Content-Length: 2\r\nConnection: close\r\n\r\n"))
    }

    @Test func noContent_hasNoLength() {
        #expect(!encode(Response(status: .noContent)).contains("Content-Length"))
    }

    @Test func injectedHeaders_areDropped() {
        let text = encode(Response(status: .ok, headers: ["X-Evil": "a\r\nSet-Cookie: x", "Content-Length": "99"], body: .bytes([])))
        #expect(!text.contains("Evil"))
        #expect(text.contains("Content-Length: 0"))
        #expect(!text.contains("99"))
    }

    @Test func dateHeader_isIMFFixdate() {
        #expect(HTTPDateCache.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func problem_isRFC9457JSON() {
        let error = HTTPError(.badRequest, code: "bad", detail: "say \"hi\"\n", extensions: [("parameter", "\"limit\"")])
        #expect(
            String(decoding: ProblemJSON.encode(error), as: UTF8.self)
                == #"{"type":"about:blank","title":"Bad Request","status":400,"detail":"say \"hi\"\n","code":"bad","parameter":"limit"}"#)
    }
}
