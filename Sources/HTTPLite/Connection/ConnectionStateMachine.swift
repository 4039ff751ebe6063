/// One connection's life as a pure value: events go in (`bytesReceived`, `responseReady`,
/// `wrote`, `peerClosed`, `timerFired`, ...), and `nextAction()` says what the event loop must
/// do next (`handle` a request, `write`, `shutdownWrite`, `close`, `setInterest`, ...), one
/// action at a time until `.wait`. It performs no I/O and reads no clock: time arrives with
/// each event, so every timeout, pipelining and lingering close is testable without sockets.
///
/// Phases: `serving` (reading and answering requests, pipelined ones in order),
/// `awaitingResponse` (a deferred response is being computed; requests behind it wait),
/// `streaming` (a streaming body is being sent), `closingAfterFlush` (the last response is
/// queued), `lingering` (our side is shut down and unread input is drained until the client
/// closes, so the last response is not destroyed by a reset), `closed`.
struct ConnectionStateMachine {
    /// What the event loop must do next.
    enum Action {
        /// Run the handler for this request and answer with `responseReady(_:to:...)`.
        case handle(Request)
        /// Send `pendingOutput` and report with `wrote(_:now:)` or `writeBlocked()`.
        case write
        /// Start the deferred response's work; its result arrives with `deferredResponseReady`.
        case startDeferred(@Sendable (DeferredResponse) -> Void)
        /// Hand a new `ResponseStream` to the producer; chunks arrive with `streamChunk`.
        case startStream(@Sendable (ResponseStream) -> Void)
        /// The stream has ended (finished, or the connection is going): mark it closed.
        case endStream
        /// One line for the access log.
        case log(AccessRecord)
        /// The parser refused a request (for the server's counters).
        case countMalformedRequest
        /// Shut down our sending side (a lingering close begins).
        case shutdownWrite
        /// Close the socket (and mark a stream closed); the machine is done.
        case close
        /// Wait for these readiness events from now on.
        case setInterest(Interest)
        /// Nothing to do until the next event.
        case wait
    }

    /// A served request, for the access log. `started` is the loop's nanosecond reading when
    /// its handler began (0: the server answered by itself).
    struct AccessRecord: Equatable {
        let method: String
        let path: String
        let status: Int
        /// -1 for a streamed body.
        let bodyBytes: Int
        let started: Int64
        /// The request's trace; nil for an answer the server made before there was a request.
        var trace: TraceContext? = nil
        /// The client's address (`Request.remoteAddress`), else the connection's peer's.
        var client: String? = nil
    }

    private enum Phase {
        case serving
        case awaitingResponse(PendingRequest)
        case streaming(isChunked: Bool, keepAlive: Bool)
        case closingAfterFlush
        case lingering(until: Int64)
        case closed
    }

    /// What a response needs from its request once it is ready.
    struct PendingRequest {
        let method: HTTPMethod
        let path: String
        let version: HTTPVersion
        let keepAlive: Bool
        let started: Int64
        let trace: TraceContext
        let client: String?
    }

    let configuration: Configuration
    private var phase = Phase.serving
    private var inbound = InboundBuffer()
    private var parser: RequestParser
    private var outbound = OutboundBytes()
    /// Actions `nextAction` owes the loop before anything else, in order (starting a
    /// deferred or streamed response, ending a stream, logging, counting).
    private var owed: [Action] = []
    private var isWriteBlocked = false
    /// The client shut down its sending side; answer what arrived, then close.
    private var isInputClosed = false
    private var isShuttingDown = false
    /// The body being streamed has an end of its own (`ResponseBody.download`): a shutdown lets it finish.
    private var streamHasEnd = false
    /// Closed by an event: the loop is still to be told.
    private var owesClose = false
    private var registeredInterest: Interest
    /// The last byte read or written.
    private var lastProgress: Int64
    /// When the first byte of the request being read arrived; nil between requests.
    private var requestStartedAt: Int64?
    private var bytesReceived = 0
    /// When the timer first saw the current body being read, and how much had arrived then.
    private var bodyWatch: (since: Int64, bytesReceived: Int)?

    /// A new connection, reading: the loop registered it with `Interest.reading`.
    /// Its requests' `remoteAddress` is `peerAddress`, or the client a trusted proxy there names.
    init(configuration: Configuration, now: Int64, peerAddress: String? = nil) {
        self.configuration = configuration
        parser = RequestParser(
            limits: configuration.limits, headScreen: configuration.headScreen,
            addressing: ClientAddressing(peer: peerAddress, trustedProxies: configuration.trustedProxies))
        lastProgress = now
        registeredInterest = .reading
    }

    // MARK: what the loop reads

    /// Bytes waiting to be sent.
    var pendingOutputCount: Int { outbound.count }

    /// Calls `body` with the bytes waiting to be sent, in three parts (any may be empty): what
    /// is buffered, then a large body's one or two pieces sent from where they are (`OutboundBytes`).
    func withPendingOutput<T>(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> T) -> T {
        outbound.withUnsent(body)
    }

    /// Whether readable events mean input to read (else they mean a hang-up).
    var readsInput: Bool {
        switch phase {
        case .serving, .closingAfterFlush, .lingering: true
        case .awaitingResponse, .streaming, .closed: false
        }
    }

    /// Nothing received, nothing owed: safe to close at once during shutdown.
    var isIdle: Bool {
        guard case .serving = phase else { return false }
        return inbound.isEmpty && pendingOutputCount == 0 && !parser.isMidRequest && owed.isEmpty
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    // MARK: events

    /// Bytes arrived from the client.
    mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: Int64) {
        if case .lingering = phase { return }  // drained and dropped
        inbound.append(bytes)
        lastProgress = now
        bytesReceived += bytes.count
        if requestStartedAt == nil { requestStartedAt = now }
    }

    /// The client closed its sending side (a read returned end of stream).
    mutating func peerClosed() {
        switch phase {
        case .lingering, .awaitingResponse, .streaming: close()
        case .serving, .closingAfterFlush: isInputClosed = true
        case .closed: break
        }
    }

    /// The client hung up or the socket failed.
    mutating func socketFailed() { close() }

    /// The loop sent `count` bytes of `pendingOutput`.
    mutating func wrote(_ count: Int, now: Int64) {
        lastProgress = now
        isWriteBlocked = false
        // A stream is idle between events, often for long: it keeps no buffer (thousands are
        // open at once); nor does any connection keep a large one.
        let isStreaming = if case .streaming = phase { true } else { false }
        outbound.sent(count) { capacity in !isStreaming && capacity <= 64 * 1024 }
    }

    /// The socket takes no more output for now; wait until it is writable.
    mutating func writeBlocked() { isWriteBlocked = true }

    /// The socket is writable again.
    mutating func becameWritable() { isWriteBlocked = false }

    /// The handler's answer to the request of the last `.handle`; `handlerStarted` is the
    /// loop's nanosecond reading when it began. `isServerShuttingDown`: say `Connection: close`.
    mutating func responseReady(
        _ response: Response, to request: Request, handlerStarted: Int64, isServerShuttingDown: Bool, encoder: inout ResponseEncoder
    ) {
        if isServerShuttingDown { isShuttingDown = true }
        let pending = PendingRequest(
            method: request.method, path: request.path, version: request.version,
            keepAlive: request.wantsKeepAlive && !isShuttingDown, started: handlerStarted, trace: request.trace,
            client: request.remoteAddress)
        switch response.body {
        case .bytes, .parts:
            write(response, for: pending, encoder: &encoder)
        case .deferred(let start):
            phase = .awaitingResponse(pending)
            owed.append(.startDeferred(start))
        case .stream(let produce), .download(let produce):
            streamHasEnd = if case .download = response.body { true } else { false }
            // HTTP/1.0 has no chunked coding: the body then ends when the connection closes.
            let isChunked = request.version == .http1_1
            let keepAlive = pending.keepAlive && isChunked
            outbound.append {
                encoder.appendHead(
                    status: response.status, headers: response.headers, framing: isChunked ? .chunked : .untilClose,
                    connection: Self.connectionField(keepAlive: keepAlive, version: request.version), to: &$0)
            }
            owed.append(
                .log(
                    AccessRecord(
                        method: request.method.rawValue, path: request.path, status: response.status.code, bodyBytes: -1,
                        started: handlerStarted, trace: request.trace, client: request.remoteAddress)))
            guard request.method != .head else {
                if !keepAlive { phase = .closingAfterFlush }
                return
            }
            phase = .streaming(isChunked: isChunked, keepAlive: keepAlive)
            if inbound.isEmpty { inbound = InboundBuffer() }  // nothing is read while streaming: give the request's buffer back
            owed.append(.startStream(produce))
        }
    }

    /// A deferred response arrived: it is sent, then requests pipelined behind it are served.
    mutating func deferredResponseReady(_ response: Response, encoder: inout ResponseEncoder) {
        guard case .awaitingResponse(let request) = phase else { return }
        write(response, for: request, encoder: &encoder)
    }

    /// A piece of a streaming body; `framed` is the same piece framed as a chunk when the
    /// caller has it (a broadcast frames its event once for every stream).
    mutating func streamChunk(_ bytes: [UInt8], framed: [UInt8]? = nil) {
        guard case .streaming(let isChunked, _) = phase, !bytes.isEmpty else { return }
        outbound.append(shared: isChunked ? framed ?? ResponseEncoder.chunk(bytes) : bytes)
        if pendingOutputCount > configuration.streamBacklogLimit { close() }  // the client reads slower than events arrive
    }

    /// The producer gave up on a body with an end: the connection closes without ending it.
    mutating func streamAborted() {
        guard case .streaming = phase else { return }
        close()
    }

    /// The streaming body ended; the connection serves the next request or closes.
    mutating func streamFinished() {
        guard case .streaming(let isChunked, let keepAlive) = phase else { return }
        if isChunked { outbound.append { ResponseEncoder.appendLastChunk(to: &$0) } }
        phase = keepAlive && !isShuttingDown ? .serving : .closingAfterFlush
        owed.append(.endStream)
    }

    /// The server is shutting down: an idle connection closes, a stream ends, and every
    /// response from now on says `Connection: close`.
    mutating func shutdownBegan() {
        isShuttingDown = true
        if isIdle {
            close()
        } else if case .streaming = phase, !streamHasEnd {
            streamFinished()  // a stream has no natural end; end it so shutdown is not held for the whole grace period
        }
    }

    /// Time passed: applies the idle, header, body and lingering timeouts.
    mutating func timerFired(now: Int64, encoder: inout ResponseEncoder) {
        let idle = configuration.idleTimeout
        switch phase {
        case .lingering(let until):
            if now >= until { close() }
        case .streaming, .awaitingResponse:
            if pendingOutputCount > 0 && now - lastProgress >= idle { close() }
        case .serving, .closingAfterFlush:
            if pendingOutputCount > 0 {
                if now - lastProgress >= idle { close() }
            } else if let started = requestStartedAt {
                if parser.isReadingHead {
                    if now - started >= configuration.headerReadTimeout { timeOutRequest(encoder: &encoder) }
                } else if isTooSlow(readingBodyAt: now) {
                    timeOutRequest(encoder: &encoder)
                }
            } else if now - lastProgress >= idle {
                close()
            }
        case .closed:
            break
        }
    }

    // MARK: actions

    /// The next thing the loop must do; `.wait` when nothing is left until the next event.
    mutating func nextAction(now: Int64, encoder: inout ResponseEncoder) -> Action {
        if !owed.isEmpty { return owed.removeFirst() }
        if case .closed = phase {
            defer { owesClose = false }
            return owesClose ? .close : .wait
        }
        if case .serving = phase, let action = parseNext(now: now, encoder: &encoder) { return action }
        if isInputClosed, case .serving = phase { phase = .closingAfterFlush }  // no further request can arrive
        if pendingOutputCount > 0 {
            if !isWriteBlocked { return .write }
        } else if case .closingAfterFlush = phase {
            guard !isInputClosed else { return closeNow() }
            phase = .lingering(until: now + configuration.lingerTimeout)
            inbound = InboundBuffer()
            return .shutdownWrite
        } else if isShuttingDown && isIdle {
            return closeNow()
        }
        let interest = desiredInterest
        if interest != registeredInterest {
            registeredInterest = interest
            return .setInterest(interest)
        }
        return .wait
    }

    /// The next complete request in the buffer, a `100 Continue`, or a parse error.
    private mutating func parseNext(now: Int64, encoder: inout ResponseEncoder) -> Action? {
        while true {
            switch parser.next(&inbound) {
            case .needMoreData:
                inbound.compact()
                return nil
            case .continueExpected:
                outbound.append { ResponseEncoder.appendContinue(to: &$0) }
            case .request(let request):
                requestStartedAt = inbound.isEmpty ? nil : now
                bodyWatch = nil
                return .handle(request)
            case .refused(let request, let response, let keepsConnection):
                // Answered from the head: the body is skipped (the request's timeouts still
                // bound it) or never read, the connection closing after the answer.
                requestStartedAt = inbound.isEmpty && !parser.isMidRequest ? nil : now
                bodyWatch = nil
                let pending = PendingRequest(
                    method: request.method, path: request.path, version: request.version,
                    keepAlive: keepsConnection && request.wantsKeepAlive, started: 0, trace: request.trace,
                    client: request.remoteAddress)
                write(response, for: pending, encoder: &encoder)
                return owed.removeFirst()  // its log line; a request after it is parsed on the next call
            case .failed(let error):
                respond(to: error, encoder: &encoder)
                return .countMalformedRequest
            }
        }
    }

    private var desiredInterest: Interest {
        var interest: Interest
        switch phase {
        case .serving:
            interest = !isInputClosed && pendingOutputCount < configuration.outputHighWater ? .reading : []
        case .streaming, .awaitingResponse:
            interest = isInputClosed ? [] : .hangUp  // only a hang-up matters while the answer is made
        case .lingering:
            interest = .reading
        case .closingAfterFlush, .closed:
            interest = []
        }
        if pendingOutputCount > 0 { interest.insert(.write) }
        return interest
    }

    // MARK: helpers

    /// Encodes a fixed-body response; a body of another kind is a handler bug, answered 500.
    private mutating func write(_ response: Response, for request: PendingRequest, encoder: inout ResponseEncoder) {
        guard let bodyCount = response.body.fixedCount else {
            let error = HTTPError(.internalServerError, code: "internal-error", detail: "The server could not answer this request.")
            return write(error.response, for: request, encoder: &encoder)
        }
        let isOpen = request.keepAlive && !isShuttingDown
        outbound.append {
            encoder.appendHead(
                for: response, bodyCount: bodyCount, connection: Self.connectionField(keepAlive: isOpen, version: request.version),
                to: &$0)
        }
        if request.method != .head && !response.status.forbidsBody { outbound.append(fixed: response.body) }
        phase = isOpen ? .serving : .closingAfterFlush
        owed.append(
            .log(
                AccessRecord(
                    method: request.method.rawValue, path: request.path, status: response.status.code, bodyBytes: bodyCount,
                    started: request.started, trace: request.trace, client: request.client)))
    }

    /// Sends an error the server itself produced, then closes: the byte stream is no longer trusted.
    private mutating func respond(to error: HTTPError, encoder: inout ResponseEncoder) {
        let response = error.response
        guard case .bytes(let body) = response.body else { return }
        outbound.append { encoder.append(response, body: body, includeBody: true, connection: .close, to: &$0) }
        phase = .closingAfterFlush
        owed.append(
            .log(
                AccessRecord(
                    method: "-", path: "-", status: error.status.code, bodyBytes: body.count, started: 0, client: parser.addressing.peer)))
    }

    /// A client too slow to send its request gets 408, then the connection closes.
    private mutating func timeOutRequest(encoder: inout ResponseEncoder) {
        respond(to: HTTPError(.requestTimeout, code: "request-timeout", detail: "The request was not received in time."), encoder: &encoder)
    }

    /// Whether a body is taking too long: past `bodyReadTimeout`, or (after the grace period)
    /// arriving slower than `minBodyBytesPerSecond` on average. A request is bounded as a
    /// whole, so a client trickling a byte at a time cannot hold a connection for ever.
    private mutating func isTooSlow(readingBodyAt now: Int64) -> Bool {
        guard let watch = bodyWatch else {
            bodyWatch = (now, bytesReceived)
            return false
        }
        let elapsed = now - watch.since
        if elapsed >= configuration.bodyReadTimeout { return true }
        guard elapsed >= configuration.minBodyRateGrace, elapsed > 0 else { return false }
        return (bytesReceived - watch.bytesReceived) * 1000 / Int(elapsed) < configuration.minBodyBytesPerSecond
    }

    /// Closes on an event: the stream (if any) ends, and the next action is `.close`.
    private mutating func close() {
        guard !isClosed else { return }
        owed = []  // the loop marks a stream closed as it closes the socket
        phase = .closed
        owesClose = true
    }

    /// Closes from `nextAction`, which returns the `.close` itself.
    private mutating func closeNow() -> Action {
        close()
        owesClose = false
        return .close
    }

    private static func connectionField(keepAlive: Bool, version: HTTPVersion) -> ResponseEncoder.ConnectionField {
        switch (keepAlive, version) {
        case (false, _): .close
        case (true, .http1_1): .omitted
        case (true, .http1_0): .keepAlive
        }
    }
}
