/// Incremental HTTP/1.1 request parser: feed it the connection's bytes, in any fragments,
/// and it yields requests in order, a `100 Continue` prompt, or the first error.
///
/// Invariants: nothing is consumed from the buffer until the whole head has arrived; after
/// `.failed` the stream can no longer be trusted and the parser must not be used again.
struct RequestParser {
    /// What the parser waits for.
    private enum State {
        case readingHead(HeadScan)
        case readingBody(RequestHead, length: Int)
        case readingChunkedBody(RequestHead, ChunkedBodyDecoder)
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
        case failed(HTTPError)
    }

    let limits: HTTPLimits
    /// The largest body for a request's method and path, when routes differ (an import takes
    /// megabytes, a form a few kilobytes); never above `limits.maxBodyBytes`.
    let bodyLimit: BodyLimit?
    private var state = State.readingHead(HeadScan())
    private var hasPromptedContinue = false

    init(limits: HTTPLimits, bodyLimit: BodyLimit? = nil) {
        self.limits = limits
        self.bodyLimit = bodyLimit
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
                let parsed = buffer.withReadableBytes {
                    RequestHead.parse(UnsafeBufferPointer(rebasing: $0[..<(headLength - 4)]), limits: limits)
                }
                buffer.consume(headLength)
                switch parsed {
                case .failure(let error): return .failed(error)
                case .success(let head): return begin(head, &buffer)
                }
            }
        case .readingBody(let head, let length):
            guard buffer.readableCount >= length else { return promptContinueIfAsked(head) }
            let body = buffer.withReadableBytes { Array($0.prefix(length)) }
            buffer.consume(length)
            return finish(head, body: body)
        case .readingChunkedBody(let head, var decoder):
            let progress = decoder.decode(&buffer)
            state = .readingChunkedBody(head, decoder)
            switch progress {
            case .needMoreData: return promptContinueIfAsked(head)
            case .failed(let error): return .failed(error)
            case .finished(let body): return finish(head, body: body)
            }
        }
    }

    private mutating func begin(_ head: RequestHead, _ buffer: inout InboundBuffer) -> Event {
        switch head.framing {
        case .none: return finish(head, body: [])
        case .contentLength(let length):
            // Refused from the head alone: the body is never read (RFC 9110 §15.5.14).
            guard length <= maxBodyBytes(for: head) else { return .failed(.bodyTooLarge) }
            state = .readingBody(head, length: length)
        case .chunked:
            state = .readingChunkedBody(head, ChunkedBodyDecoder(maxBodyBytes: maxBodyBytes(for: head), limits: limits))
        }
        return next(&buffer)
    }

    /// The largest body `head`'s route takes.
    private func maxBodyBytes(for head: RequestHead) -> Int {
        min(limits.maxBodyBytes, bodyLimit?(head.method, head.path) ?? .max)
    }

    private mutating func promptContinueIfAsked(_ head: RequestHead) -> Event {
        guard head.expectsContinue, head.version == .http1_1, !hasPromptedContinue else { return .needMoreData }
        hasPromptedContinue = true
        return .continueExpected
    }

    private mutating func finish(_ head: RequestHead, body: [UInt8]) -> Event {
        state = .readingHead(HeadScan())
        hasPromptedContinue = false
        return .request(head.makeRequest(body: body))
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
                let index = scan.scanned
                scan.scanned += 1
                guard bytes[index] == HTTPSyntax.lf else {
                    if scan.requestLineEnd == nil && scan.scanned > limits.maxRequestLineLength {
                        return .failed(.requestLineTooLong)
                    }
                    if scan.scanned > limits.maxHeaderBytes { return .failed(.headersTooLarge) }
                    continue
                }
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
}
