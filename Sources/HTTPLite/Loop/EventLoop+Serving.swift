import CSystem
import Glibc

/// Reading requests, running the handler and writing responses on one connection.
extension EventLoop {
    func handle(_ events: UInt32, on connection: Connection) {
        if events & EPOLLERR.rawValue != 0 {
            close(connection)
            return
        }
        if events & EPOLLOUT.rawValue != 0 {
            flush(connection)
            guard connections[connection.fd] === connection else { return }
        }
        let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue
        guard events & readable != 0 else { return }
        switch connection.phase {
        case .streaming, .awaitingResponse:
            close(connection)  // only hang-ups are watched while waiting: the client has gone
        case .lingering:
            drain(connection)
        case .serving, .closingAfterFlush:
            readAndServe(connection)
        }
    }

    private func readAndServe(_ connection: Connection) {
        switch Socket.read(connection.fd, into: readBuffer) {
        case .transferred(let count):
            connection.inbound.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
            connection.lastProgress = now
            connection.bytesReceived += count
            if connection.requestStartedAt == nil { connection.requestStartedAt = now }
        case .wouldBlock:
            return
        case .endOfStream:
            connection.isInputClosed = true
        case .failed:
            close(connection)
            return
        }
        serve(connection)
    }

    /// Answers every complete request in the buffer, in order (pipelining), then writes.
    func serve(_ connection: Connection) {
        parsing: while case .serving = connection.phase {
            switch connection.parser.next(&connection.inbound) {
            case .needMoreData:
                break parsing
            case .continueExpected:
                ResponseEncoder.appendContinue(to: &connection.outbound)
            case .request(let request):
                connection.requestStartedAt = connection.inbound.isEmpty ? nil : now
                connection.bodyWatch = nil
                respond(to: request, on: connection)
            case .failed(let error):
                context.statistics.malformedRequests.add(1, ordering: .relaxed)
                respond(to: error, on: connection, method: "-", path: "-")
            }
        }
        connection.inbound.compact()
        if connection.isInputClosed, case .serving = connection.phase {
            connection.phase = .closingAfterFlush  // no further request can arrive
        }
        flush(connection)
    }

    private func respond(to request: Request, on connection: Connection) {
        let started = MonotonicClock.nanoseconds()
        let response = context.respond(to: request)
        context.statistics.requests.add(1, ordering: .relaxed)
        let keepAlive = request.wantsKeepAlive && !context.isShuttingDown.load(ordering: .acquiring)
        let method = request.method.rawValue
        switch response.body {
        case .bytes:
            let pending = Connection.PendingRequest(
                method: request.method, path: request.path, version: request.version, keepAlive: keepAlive, started: started)
            write(response, for: pending, on: connection)
        case .deferred(let start):
            connection.phase = .awaitingResponse(
                Connection.PendingRequest(
                    method: request.method, path: request.path, version: request.version, keepAlive: keepAlive, started: started))
            start(DeferredResponse(loop: handle, key: connection.key))
        case .stream(let produce):
            // HTTP/1.0 has no chunked coding: the body then ends when the connection closes.
            let isChunked = request.version == .http1_1
            let streamKeepsAlive = keepAlive && isChunked
            encoder.appendHead(
                status: response.status, headers: response.headers, framing: isChunked ? .chunked : .untilClose,
                connection: connectionField(keepAlive: streamKeepsAlive, version: request.version),
                to: &connection.outbound)
            accessLog.record(
                method: method, path: request.path, status: response.status.code, bodyBytes: -1,
                nanoseconds: MonotonicClock.nanoseconds() - started)
            guard request.method != .head else {
                if !streamKeepsAlive { connection.phase = .closingAfterFlush }
                return
            }
            let stream = ResponseStream(loop: handle, key: connection.key)
            connection.phase = .streaming(stream, isChunked: isChunked, keepAlive: streamKeepsAlive)
            produce(stream)
        }
    }

    /// Encodes a fixed-body response to `request`; a body of another kind is a handler bug, answered 500.
    private func write(_ response: Response, for request: Connection.PendingRequest, on connection: Connection) {
        guard case .bytes(let body) = response.body else {
            context.configuration.errorLog("level=error event=nested-deferred-response path=\(request.path)")
            write(
                HTTPError(.internalServerError, code: "internal-error", detail: "The server could not answer this request.").response,
                for: request, on: connection)
            return
        }
        let isOpen = request.keepAlive && !context.isShuttingDown.load(ordering: .acquiring)
        encoder.append(
            response, body: body, includeBody: request.method != .head,
            connection: connectionField(keepAlive: isOpen, version: request.version), to: &connection.outbound)
        connection.phase = isOpen ? .serving : .closingAfterFlush
        accessLog.record(
            method: request.method.rawValue, path: request.path, status: response.status.code, bodyBytes: body.count,
            nanoseconds: MonotonicClock.nanoseconds() - request.started)
    }

    /// A deferred response arrived: send it, then serve any requests pipelined behind it.
    func completeDeferred(_ response: Response, on connection: Connection) {
        guard case .awaitingResponse(let request) = connection.phase else { return }
        write(response, for: request, on: connection)
        serve(connection)
    }

    /// Sends an error the server itself produced, then closes: the byte stream is no longer trusted.
    func respond(to error: HTTPError, on connection: Connection, method: String, path: String) {
        let response = error.response
        guard case .bytes(let body) = response.body else { return }
        encoder.append(response, body: body, includeBody: true, connection: .close, to: &connection.outbound)
        connection.phase = .closingAfterFlush
        accessLog.record(method: method, path: path, status: error.status.code, bodyBytes: body.count, nanoseconds: 0)
    }

    private func connectionField(keepAlive: Bool, version: HTTPVersion) -> ResponseEncoder.ConnectionField {
        switch (keepAlive, version) {
        case (false, _): .close
        case (true, .http1_1): .omitted
        case (true, .http1_0): .keepAlive
        }
    }

    // MARK: streaming

    func writeStreamChunk(_ bytes: [UInt8], on connection: Connection) {
        guard case .streaming(_, let isChunked, _) = connection.phase else { return }
        if isChunked {
            ResponseEncoder.appendChunk(bytes, to: &connection.outbound)
        } else {
            connection.outbound.append(contentsOf: bytes)
        }
        guard connection.pendingOutputCount <= Self.streamBacklogLimit else {
            close(connection)  // the client reads slower than events arrive
            return
        }
        flush(connection)
    }

    func finishStream(on connection: Connection) {
        guard case .streaming(let stream, let isChunked, let keepAlive) = connection.phase else { return }
        stream.markClosed()
        if isChunked { ResponseEncoder.appendLastChunk(to: &connection.outbound) }
        connection.phase = keepAlive && shutdownDeadline == nil ? .serving : .closingAfterFlush
        serve(connection)  // requests pipelined behind the stream
    }

    // MARK: writing and closing

    /// Writes what it can; then closes, lingers, or sets which events to wait for.
    func flush(_ connection: Connection) {
        while connection.pendingOutputCount > 0 {
            let result = connection.outbound.withUnsafeBytes {
                Socket.write(connection.fd, UnsafeRawBufferPointer(rebasing: $0[connection.outboundIndex...]))
            }
            switch result {
            case .transferred(let count):
                connection.outboundIndex += count
                connection.lastProgress = now
            case .wouldBlock:
                updateInterest(connection)
                return
            case .endOfStream, .failed:
                close(connection)
                return
            }
        }
        if connection.outbound.capacity > 64 * 1024 {
            connection.outbound = []  // do not keep a large buffer per idle connection
        } else {
            connection.outbound.removeAll(keepingCapacity: true)
        }
        connection.outboundIndex = 0
        if connection.isClosingAfterFlush {
            beginLingeringClose(connection)
        } else if shutdownDeadline != nil && connection.isIdle {
            close(connection)
        } else {
            updateInterest(connection)
        }
    }

    private func beginLingeringClose(_ connection: Connection) {
        guard !connection.isInputClosed else {
            close(connection)
            return
        }
        shutdown(connection.fd, Int32(SHUT_WR))
        connection.phase = .lingering(until: now + 2000)
        connection.inbound = InboundBuffer()
        updateInterest(connection)
    }

    private func drain(_ connection: Connection) {
        switch Socket.read(connection.fd, into: readBuffer) {
        case .transferred, .wouldBlock: return
        case .endOfStream, .failed: close(connection)
        }
    }

    func close(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.fd) != nil else { return }
        if case .streaming(let stream, _, _) = connection.phase { stream.markClosed() }
        context.connectionClosed()  // before close(), so the count is right by the time the peer sees EOF
        Glibc.close(connection.fd)  // closing also removes it from epoll
    }

    private func updateInterest(_ connection: Connection) {
        var events: UInt32
        switch connection.phase {
        case .serving:
            let isReading = !connection.isInputClosed && connection.pendingOutputCount < Self.outputHighWater
            events = isReading ? Self.readEvents : 0
        case .streaming, .awaitingResponse:
            events = connection.isInputClosed ? 0 : EPOLLRDHUP.rawValue
        case .lingering:
            events = Self.readEvents
        case .closingAfterFlush:
            events = 0
        }
        if connection.pendingOutputCount > 0 { events |= EPOLLOUT.rawValue }
        guard events != connection.registeredEvents else { return }
        connection.registeredEvents = events
        register(connection.fd, events: events, operation: EPOLL_CTL_MOD)
    }
}
