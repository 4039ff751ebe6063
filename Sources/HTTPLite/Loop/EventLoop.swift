import CSystem
import Glibc

/// One event-loop thread: an epoll instance watching the shared listener, its own wake-up
/// eventfd and the connections it accepted. Everything here runs on that one thread.
final class EventLoop {
    let handle: LoopHandle
    let context: ServerContext
    private let epollFD: Int32
    private let listenerFD: Int32
    var connections: [Int32: Connection] = [:]
    var encoder = ResponseEncoder()
    var accessLog: AccessLog
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var nextSerial: UInt64 = 0
    private var isAccepting = true
    /// Set once shutdown begins: the time by which every connection must be gone.
    private(set) var shutdownDeadline: Int64?
    private let sweepInterval: Int64
    private var nextSweep: Int64 = 0
    /// The loop's clock reading for this iteration.
    private(set) var now: Int64 = MonotonicClock.milliseconds()

    static let readEvents = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
    /// Output beyond which a connection stops reading until the client catches up.
    static let outputHighWater = 256 * 1024
    /// Output a streaming client may fall behind by before it is dropped.
    static let streamBacklogLimit = 4 * 1024 * 1024

    init(handle: LoopHandle, listenerFD: Int32, context: ServerContext) {
        self.handle = handle
        self.listenerFD = listenerFD
        self.context = context
        self.epollFD = handle.epollFD
        self.accessLog = AccessLog(isEnabled: context.configuration.isAccessLogEnabled)
        let configuration = context.configuration
        let shortest =
            [
                configuration.idleTimeout, configuration.headerReadTimeout, configuration.bodyReadTimeout, configuration.minBodyRateGrace,
            ].map(\.milliseconds).min() ?? 1000
        self.sweepInterval = max(5, min(1000, shortest / 4))
    }

    deinit { readBuffer.deallocate() }

    /// Serves until shutdown has closed every connection (or its grace period ran out).
    func run() {
        let capacity: Int32 = 256
        var events = [epoll_event](repeating: epoll_event(), count: Int(capacity))
        while true {
            let count = epoll_wait(epollFD, &events, capacity, Int32(sweepInterval))
            now = MonotonicClock.milliseconds()
            if count < 0 && errno != EINTR {
                context.configuration.errorLog("level=error event=epoll_wait \(SocketError("epoll_wait"))")
                break
            }
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                let fd = event.data.fd
                if fd == listenerFD {
                    acceptConnections()
                } else if fd == handle.wakeFD {
                    runTasks()
                } else if let connection = connections[fd] {
                    handle(event.events, on: connection)
                }
            }
            accessLog.flush()
            if now >= nextSweep {
                sweepTimeouts()
                nextSweep = now + sweepInterval
            }
            if let deadline = shutdownDeadline {
                if connections.isEmpty { break }
                if now >= deadline {
                    for connection in Array(connections.values) { close(connection) }
                    break
                }
            }
        }
        accessLog.flush()
    }

    // MARK: accepting

    private func acceptConnections() {
        // A bounded batch per wake-up keeps one loop from starving its own connections.
        for _ in 0..<64 where isAccepting {
            let fd: Int32
            do {
                guard let accepted = try Socket.accept(listenerFD) else { return }
                fd = accepted
            } catch {
                // Out of descriptors, say: stop accepting until the next sweep instead of spinning.
                context.configuration.errorLog("level=warning event=accept \(error)")
                setListening(false)
                return
            }
            guard context.admitConnection() else {
                rejectOverCapacity(fd)
                continue
            }
            nextSerial += 1
            let connection = Connection(
                key: ConnectionKey(fd: fd, serial: nextSerial), limits: context.configuration.limits,
                bodyLimit: context.configuration.bodyLimit,
                registeredEvents: Self.readEvents, now: now)
            guard register(fd, events: Self.readEvents, operation: EPOLL_CTL_ADD) else {
                Glibc.close(fd)
                context.connectionClosed()
                continue
            }
            connections[fd] = connection
        }
    }

    /// Answers 503 on a connection past the cap and closes it at once.
    private func rejectOverCapacity(_ fd: Int32) {
        _ = Socket.read(fd, into: readBuffer)  // drop a request already sent, so close sends FIN, not RST
        var bytes: [UInt8] = []
        let response = HTTPError(
            .serviceUnavailable, code: "too-many-connections",
            detail: "The server is at its connection limit; retry shortly.",
            headers: ["Retry-After": "1"]
        ).response
        if case .bytes(let body) = response.body {
            encoder.append(response, body: body, includeBody: true, connection: .close, to: &bytes)
        }
        _ = bytes.withUnsafeBytes { Socket.write(fd, $0) }
        Glibc.close(fd)
    }

    private func setListening(_ isListening: Bool) {
        guard isAccepting != isListening else { return }
        isAccepting = isListening
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue
        event.data.fd = listenerFD
        _ = epoll_ctl(epollFD, isListening ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, listenerFD, &event)
    }

    @discardableResult
    func register(_ fd: Int32, events: UInt32, operation: Int32) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        return epoll_ctl(epollFD, operation, fd, &event) == 0
    }

    // MARK: cross-thread tasks

    private func runTasks() {
        for task in handle.takeTasks() {
            switch task {
            case .streamWrite(let key, let bytes):
                if let connection = connections[key.fd], connection.key == key {
                    writeStreamChunk(bytes, on: connection)
                }
            case .streamFinish(let key):
                if let connection = connections[key.fd], connection.key == key {
                    finishStream(on: connection)
                }
            case .deferredComplete(let key, let response):
                if let connection = connections[key.fd], connection.key == key {
                    completeDeferred(response, on: connection)
                }
            case .beginShutdown:
                beginShutdown()
            }
        }
    }

    private func beginShutdown() {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = now + context.configuration.shutdownGracePeriod.milliseconds
        setListening(false)
        for connection in Array(connections.values) {
            if connection.isIdle {
                close(connection)
            } else if case .streaming(let stream, _, _) = connection.phase {
                // A stream has no natural end; end it so shutdown is not held for the whole grace period.
                stream.markClosed()
                finishStream(on: connection)
            }
        }
    }

    // MARK: timeouts

    private func sweepTimeouts() {
        if !isAccepting && shutdownDeadline == nil { setListening(true) }
        let configuration = context.configuration
        let idle = configuration.idleTimeout.milliseconds
        let header = configuration.headerReadTimeout.milliseconds
        for connection in Array(connections.values) {
            switch connection.phase {
            case .lingering(let until):
                if now >= until { close(connection) }
            case .streaming, .awaitingResponse:
                if connection.pendingOutputCount > 0 && now - connection.lastProgress >= idle { close(connection) }
            case .serving, .closingAfterFlush:
                if connection.pendingOutputCount > 0 {
                    if now - connection.lastProgress >= idle { close(connection) }
                } else if let started = connection.requestStartedAt {
                    if connection.parser.isReadingHead {
                        if now - started >= header { timeOutRequest(connection) }
                    } else if isTooSlow(readingBodyOf: connection) {
                        timeOutRequest(connection)
                    }
                } else if now - connection.lastProgress >= idle {
                    close(connection)
                }
            }
        }
    }

    /// Whether a body is taking too long: past `bodyReadTimeout`, or (after the grace period)
    /// arriving slower than `minBodyBytesPerSecond` on average. A request is bounded as a
    /// whole, so a client trickling a byte at a time cannot hold a connection for ever.
    private func isTooSlow(readingBodyOf connection: Connection) -> Bool {
        guard let watch = connection.bodyWatch else {
            connection.bodyWatch = (now, connection.bytesReceived)
            return false
        }
        let configuration = context.configuration
        let elapsed = now - watch.since
        if elapsed >= configuration.bodyReadTimeout.milliseconds { return true }
        guard elapsed >= configuration.minBodyRateGrace.milliseconds, elapsed > 0 else { return false }
        return (connection.bytesReceived - watch.bytesReceived) * 1000 / Int(elapsed) < configuration.minBodyBytesPerSecond
    }

    /// A client too slow to send its request gets 408, then the connection closes.
    private func timeOutRequest(_ connection: Connection) {
        let error = HTTPError(
            .requestTimeout, code: "request-timeout", detail: "The request was not received in time.")
        respond(to: error, on: connection, method: "-", path: "-")
        flush(connection)
    }
}
