import Glibc

/// Incremental HTTP/1.1 request parser: feed it the connection's bytes, in any fragments,
/// and it yields requests in order, a `100 Continue` prompt, or the first error.
///
/// Invariants: nothing is consumed from the buffer until the whole head has arrived; after
/// `.failed` the stream can no longer be trusted and the parser must not be used again.
struct RequestParser {
    /// What the parser waits for.
    private enum State {
        case readingHead(HeadScan)
        /// A body of known length, moved out of the inbound buffer as it arrives into an array
        /// of exactly its size: a body of megabytes is held once, never in a buffer grown by
        /// doubling and then copied.
        case readingBody(RequestHead, body: [UInt8], length: Int)
        case readingChunkedBody(RequestHead, ChunkedBodyDecoder)
        /// A refused request's small body, dropped as it arrives.
        case skippingBody(remaining: Int)
    }

    /// How far the search for the blank line that ends the head has gone (offsets from the
    /// buffer's reader index, which stays put while the head is incomplete).
    private struct HeadScan {
        var scanned = 0
        var requestLineEnd: Int?
        var lineStart = 0
    }

    enum Event {
        case needMoreData
        /// The client sent `Expect: 100-continue` and waits for the interim response.
        case continueExpected
        case request(Request)
        /// The head screen refused the request, or its query did not decode (its body empty):
        /// answer `response` now. When `keepsConnection`, the body is skipped as it arrives and
        /// the next request follows; otherwise the connection must close after the answer.
        case refused(Request, Response, keepsConnection: Bool)
        case failed(HTTPError)
    }

    /// The largest body a refused request may have for it to be skipped rather than the
    /// connection closed (RFC 9110 §15.5.1 leaves the choice; nginx also discards small ones).
    static let maxSkippedBodyBytes = 64 * 1024

    let limits: HTTPLimits
    /// Judges requests with a body from their heads: a refusal, or the largest body for the
    /// request's route (an import takes megabytes, a form a few kilobytes).
    let headScreen: HeadScreen?
    /// Gives each request its `remoteAddress`, before the head screen sees it.
    let addressing: ClientAddressing
    private var state = State.readingHead(HeadScan())
    private var hasPromptedContinue = false
    /// What the head screen learned of the sender of the request whose body is being read.
    private var screenedSender: (any Sendable)?

    init(
        limits: HTTPLimits, headScreen: HeadScreen? = nil, addressing: ClientAddressing = ClientAddressing(peer: nil, trustedProxies: .none)
    ) {
        self.limits = limits
        self.headScreen = headScreen
        self.addressing = addressing
    }

    /// Whether part of a request has arrived (the connection is not idle).
    var isMidRequest: Bool {
        if case .readingHead(let scan) = state { return scan.scanned > 0 }
        return true
    }

    /// Whether the parser still waits for the end of a request head.
    var isReadingHead: Bool {
        if case .readingHead = state { return true }
        return false
    }

    mutating func next(_ buffer: inout InboundBuffer) -> Event {
        switch state {
        case .readingHead(var scan):
            skipLeadingEmptyLines(&buffer, scan: scan)
            let outcome = scanHead(buffer, &scan)
            state = .readingHead(scan)
            switch outcome {
            case .incomplete: return .needMoreData
            case .failed(let error): return .failed(error)
            case .complete(let headLength):
                var malformedQuery: MalformedQuery?
                let parsed = buffer.withReadableBytes {
                    RequestHead.parse(
                        UnsafeBufferPointer(rebasing: $0[..<(headLength - 4)]), limits: limits, malformedQuery: &malformedQuery)
                }
                buffer.consume(headLength)
                switch parsed {
                case .failure(let error): return .failed(error)
                case .success(let head): return begin(head, malformedQuery: malformedQuery, &buffer)
                }
            }
        case .readingBody(let head, var body, let length):
            state = .readingHead(HeadScan())  // the body moves out of `state` while it grows, so it is not copied
            let taken = min(length - body.count, buffer.readableCount)
            buffer.withReadableBytes { body.append(contentsOf: $0.prefix(taken)) }
            buffer.consume(taken)
            guard body.count == length else {
                state = .readingBody(head, body: body, length: length)
                return promptContinueIfAsked(head)
            }
            return finish(head, body: body)
        case .readingChunkedBody(let head, var decoder):
            let progress = decoder.decode(&buffer)
            state = .readingChunkedBody(head, decoder)
            switch progress {
            case .needMoreData: return promptContinueIfAsked(head)
            case .failed(let error): return .failed(error)
            case .finished(let body): return finish(head, body: body)
            }
        case .skippingBody(let remaining):
            let skipped = min(remaining, buffer.readableCount)
            buffer.consume(skipped)
            guard skipped == remaining else {
                state = .skippingBody(remaining: remaining - skipped)
                return .needMoreData
            }
            state = .readingHead(HeadScan())
            return next(&buffer)
        }
    }

    /// A head is in: a query that did not decode is refused; a request without a body is
    /// complete; one with a body is judged by the head screen before a byte of it is read or
    /// `100 Continue` is sent.
    private mutating func begin(_ head: RequestHead, malformedQuery: MalformedQuery?, _ buffer: inout InboundBuffer) -> Event {
        screenedSender = nil
        if let malformedQuery {
            return refuse(head, request(of: head, body: []), with: malformedQuery.httpError.response)
        }
        if head.framing == .none && !head.expectsContinue { return finish(head, body: []) }
        var maxBodyBytes = limits.maxBodyBytes
        let request = request(of: head, body: [])
        switch headScreen?(request) {
        case .refuse(let response): return refuse(head, request, with: response)
        case .accept(let routeLimit, let sender):
            maxBodyBytes = min(maxBodyBytes, routeLimit)
            screenedSender = sender
        case nil: break
        }
        switch head.framing {
        case .none: return finish(head, body: [])
        case .contentLength(let length):
            // Refused from the head alone: the body is never read (RFC 9110 §15.5.14).
            guard length <= maxBodyBytes else { return .failed(.bodyTooLarge) }
            // Its full size at once: the head passed the screen, and pages are only touched as bytes arrive.
            var body: [UInt8] = []
            body.reserveCapacity(length)
            state = .readingBody(head, body: body, length: length)
        case .chunked:
            state = .readingChunkedBody(head, ChunkedBodyDecoder(maxBodyBytes: maxBodyBytes, limits: limits))
        }
        return next(&buffer)
    }

    /// A refused request: a small body of known length is skipped as it arrives; a client that
    /// waits for `100 Continue` may never send its body, and a large or chunked one is not
    /// worth reading, so then the connection closes after the answer.
    private mutating func refuse(_ head: RequestHead, _ request: Request, with response: Response) -> Event {
        hasPromptedContinue = false
        switch head.framing {
        case .none:
            state = .readingHead(HeadScan())
            return .refused(request, response, keepsConnection: true)
        case .contentLength(let length) where length <= Self.maxSkippedBodyBytes && !head.expectsContinue:
            state = .skippingBody(remaining: length)
            return .refused(request, response, keepsConnection: true)
        case .contentLength, .chunked:
            return .refused(request, response, keepsConnection: false)
        }
    }

    private mutating func promptContinueIfAsked(_ head: RequestHead) -> Event {
        guard head.expectsContinue, head.version == .http1_1, !hasPromptedContinue else { return .needMoreData }
        hasPromptedContinue = true
        return .continueExpected
    }

    private mutating func finish(_ head: RequestHead, body: [UInt8]) -> Event {
        state = .readingHead(HeadScan())
        hasPromptedContinue = false
        var request = request(of: head, body: body)
        request.sender = screenedSender
        screenedSender = nil
        return .request(request)
    }

    /// The request of `head` and `body`, from the client `addressing` names.
    private func request(of head: RequestHead, body: [UInt8]) -> Request {
        var request = head.makeRequest(body: body)
        request.remoteAddress = addressing.clientAddress(head.headers)
        return request
    }

    /// RFC 9112 §2.2: a server should ignore empty lines received before the request line.
    private func skipLeadingEmptyLines(_ buffer: inout InboundBuffer, scan: HeadScan) {
        guard scan.scanned == 0 else { return }
        while buffer.readableCount >= 2,
            buffer.withReadableBytes({ $0[0] == HTTPSyntax.cr && $0[1] == HTTPSyntax.lf })
        {
            buffer.consume(2)
        }
    }

    private enum HeadScanOutcome {
        case incomplete
        case complete(headLength: Int)
        case failed(HTTPError)
    }

    /// Looks for the CRLF CRLF that ends the head, resuming where the last call stopped.
    private func scanHead(_ buffer: InboundBuffer, _ scan: inout HeadScan) -> HeadScanOutcome {
        buffer.withReadableBytes { bytes in
            // A lone CR may be the first half of an empty line that precedes the request line.
            if scan.scanned == 0 && bytes.count == 1 && bytes[0] == HTTPSyntax.cr { return .incomplete }
            while scan.scanned < bytes.count {
                // The next LF, found by memchr (a long header, a bearer token, is not walked
                // byte by byte); the bytes before it count toward the limits.
                let start = scan.scanned
                let index = Self.firstLF(in: bytes, from: start) ?? bytes.count
                if index > start {
                    if scan.requestLineEnd == nil && index > limits.maxRequestLineLength { return .failed(.requestLineTooLong) }
                    if index > limits.maxHeaderBytes { return .failed(.headersTooLarge) }
                }
                guard index < bytes.count else {
                    scan.scanned = bytes.count
                    return .incomplete
                }
                scan.scanned = index + 1
                guard index > 0, bytes[index - 1] == HTTPSyntax.cr else {
                    return .failed(.malformed("A line ends in a bare LF; CRLF is required."))
                }
                if scan.requestLineEnd == nil { scan.requestLineEnd = index }
                if index - 1 == scan.lineStart && index > 1 { return .complete(headLength: index + 1) }
                scan.lineStart = index + 1
            }
            return .incomplete
        }
    }

    /// The offset of the first LF in `bytes` at or after `start`; nil when there is none.
    static func firstLF(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(HTTPSyntax.lf), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }
}
