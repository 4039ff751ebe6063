import Glibc
import Basics

/// One event-loop thread: a backend (epoll or poll) watching the shared listener, its waker
/// and the connections it accepted. Everything here runs on that one thread. The loop only
/// performs what each connection's state machine asks for: it reads and writes sockets, runs
/// handlers, and feeds the results back as events.
final class EventLoop {
    let handle: LoopHandle
    let context: ServerContext
    private let backend: any EventBackend
    /// Nil for a loop that only serves connections handed to it (tests).
    private let listenerFD: Int32?
    // Unchecked exclusivity for the state every event touches: the loop and its connections
    // are used by the loop's thread alone, and each event takes a connection's machine and the
    // encoder once, passing them down `inout` (`handle(_:on:_:encoder:now:)`), so no two
    // accesses overlap; checked, each costs a run-time access record (~80 instructions), a
    // dozen per event.
    @exclusivity(unchecked) private(set) var connections: [Int32: Connection] = [:]
    @exclusivity(unchecked) private var encoder = ResponseEncoder()
    @exclusivity(unchecked) private var accessLog: AccessLog
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private let machineConfiguration: ConnectionStateMachine.Configuration
    private let clock: () -> Int64
    private var nextSerial: UInt64 = 0
    private var isAccepting = true
    /// Set once shutdown begins: the time by which every connection must be gone.
    private(set) var shutdownDeadline: Int64?
    let sweepInterval: Int64
    @exclusivity(unchecked) private var nextSweep: Int64 = 0
    /// The events of one wait, kept to reuse its storage.
    @exclusivity(unchecked) private var ready: [ReadyEvent] = []
    /// The loop's clock reading for this iteration.
    @exclusivity(unchecked) private(set) var now: Int64

    /// `clock` gives monotonic milliseconds (tests pass their own).
    init(
        handle: LoopHandle, backend: any EventBackend, listenerFD: Int32?, context: ServerContext,
        clock: @escaping () -> Int64 = MonotonicClock.milliseconds
    ) {
        self.handle = handle
        self.backend = backend
        self.listenerFD = listenerFD
        self.context = context
        self.clock = clock
        now = clock()
        let configuration = context.configuration
        accessLog = AccessLog(isEnabled: configuration.isAccessLogEnabled)
        machineConfiguration = ConnectionStateMachine.Configuration(
            limits: configuration.limits, headScreen: configuration.headScreen, trustedProxies: configuration.trustedProxies,
            idleTimeout: configuration.idleTimeout.milliseconds,
            headerReadTimeout: configuration.headerReadTimeout.milliseconds, bodyReadTimeout: configuration.bodyReadTimeout.milliseconds,
            minBodyBytesPerSecond: configuration.minBodyBytesPerSecond, minBodyRateGrace: configuration.minBodyRateGrace.milliseconds)
        let shortest =
            [
                configuration.idleTimeout, configuration.headerReadTimeout, configuration.bodyReadTimeout, configuration.minBodyRateGrace,
            ].map(\.milliseconds).min() ?? 1000
        sweepInterval = max(5, min(1000, shortest / 4))
    }

    deinit { readBuffer.deallocate() }

    /// Serves until shutdown has closed every connection (or its grace period ran out).
    func run() {
        while runOnce(timeout: Int32(sweepInterval)) {}
        accessLog.flush()
    }

    /// Waits up to `timeout` milliseconds, handles what became ready, the tasks other threads
    /// queued and the timers; false once the loop is done.
    func runOnce(timeout: Int32) -> Bool {
        ready.removeAll(keepingCapacity: true)
        // A job waiting: look at the sockets without sleeping, then take its next step (one
        // queued meanwhile wakes the loop, or waits for the next turn).
        let hasJobs = handle.hasJobs
        let isWaiting = backend.wait(timeout: hasJobs ? 0 : timeout) { self.ready.append($0) }
        now = clock()
        guard isWaiting else {
            context.configuration.errorLog("level=error event=wait-failed error=\(LogFmt.value(SocketError("wait")))")
            return false
        }
        for event in ready {
            if event.fd == listenerFD {
                acceptConnections()
            } else if event.fd == handle.waker.fd {
                runTasks()
            } else if let connection = connections[event.fd] {
                handle(event, on: connection, &connection.machine, encoder: &encoder, now: now)
            }
        }
        if hasJobs { runJobStep() }
        accessLog.flush()
        if now >= nextSweep {
            sweepTimeouts()
            nextSweep = now + sweepInterval
        }
        guard let deadline = shutdownDeadline else { return true }
        if connections.isEmpty { return false }
        if now >= deadline {
            for connection in Array(connections.values) { close(connection) }
            return false
        }
        return true
    }

    // MARK: connections

    /// Serves an accepted, non-blocking socket whose peer is at `peerAddress`; false (and the
    /// socket closed) if it cannot be watched.
    @discardableResult
    func adopt(_ fd: Int32, peerAddress: String? = nil) -> Bool {
        nextSerial += 1
        let connection = Connection(
            key: ConnectionKey(fd: fd, serial: nextSerial),
            machine: ConnectionStateMachine(configuration: machineConfiguration, now: now, peerAddress: peerAddress))
        guard backend.register(fd, interest: .reading, isShared: false) else {
            Glibc.close(fd)
            context.connectionClosed()
            return false
        }
        connections[fd] = connection
        return true
    }

    /// Readiness on a connection, as events for its machine, with the machine and the encoder
    /// held for the whole event: one exclusive access to each (a class's stored property is
    /// checked at run time on every access).
    private func handle(
        _ event: ReadyEvent, on connection: Connection, _ machine: inout ConnectionStateMachine, encoder: inout ResponseEncoder,
        now: Int64
    ) {
        if event.isError {
            machine.socketFailed()
        } else {
            if event.isWritable { machine.becameWritable() }
            if event.isReadable || event.isHangUp {
                if machine.readsInput { read(connection.fd, into: &machine, now: now) } else { machine.peerClosed() }
            }
        }
        drive(connection, &machine, encoder: &encoder, now: now)
    }

    private func read(_ fd: Int32, into machine: inout ConnectionStateMachine, now: Int64) {
        switch Socket.read(fd, into: readBuffer) {
        case .transferred(let count): machine.bytesReceived(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), now: now)
        case .wouldBlock: break
        case .endOfStream: machine.peerClosed()
        case .failed: machine.socketFailed()
        }
    }

    /// Performs the machine's actions until it waits for the next event.
    private func drive(_ connection: Connection) {
        drive(connection, &connection.machine, encoder: &encoder, now: now)
    }

    private func drive(
        _ connection: Connection, _ machine: inout ConnectionStateMachine, encoder: inout ResponseEncoder, now: Int64
    ) {
        while true {
            switch machine.nextAction(now: now, encoder: &encoder) {
            case .wait:
                connection.stream?.noteBacklog(machine.pendingOutputCount)
                return
            case .handle(let request):
                let started = MonotonicClock.nanoseconds()
                let response = context.respond(to: request)
                context.statistics.requests.add(1, ordering: .relaxed)
                machine.responseReady(
                    response, to: request, handlerStarted: started, isServerShuttingDown: context.isShuttingDown.load(ordering: .acquiring),
                    encoder: &encoder)
            case .write:
                write(connection.fd, from: &machine, now: now)
            case .startDeferred(let start):
                start(DeferredResponse(loop: handle, key: connection.key))
            case .startStream(let produce):
                let stream = ResponseStream(loop: handle, key: connection.key)
                connection.stream = stream
                produce(stream)
            case .endStream:
                connection.stream?.markClosed()
                connection.stream = nil
            case .log(let record):
                accessLog.record(
                    method: record.method, path: record.path, status: record.status, bodyBytes: record.bodyBytes,
                    nanoseconds: record.started == 0 ? 0 : MonotonicClock.nanoseconds() - record.started, client: record.client,
                    trace: record.trace)
            case .countMalformedRequest:
                context.statistics.malformedRequests.add(1, ordering: .relaxed)
            case .shutdownWrite:
                shutdown(connection.fd, Int32(SHUT_WR))
            case .setInterest(let interest):
                backend.update(connection.fd, interest: interest)
            case .close:
                close(connection)
                return
            }
        }
    }

    /// Writes what the socket takes.
    private func write(_ fd: Int32, from machine: inout ConnectionStateMachine, now: Int64) {
        while machine.pendingOutputCount > 0 {
            switch machine.withPendingOutput({ Socket.write(fd, $0, $1, $2) }) {
            case .transferred(let count): machine.wrote(count, now: now)
            case .wouldBlock:
                machine.writeBlocked()
                return
            case .endOfStream, .failed:
                machine.socketFailed()
                return
            }
        }
    }

    private func close(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.fd) != nil else { return }
        connection.isClosed = true
        connection.stream?.markClosed()
        backend.unregister(connection.fd)
        context.connectionClosed()  // before close(), so the count is right by the time the peer sees EOF
        Glibc.close(connection.fd)
    }

    // MARK: accepting

    private func acceptConnections() {
        guard let listenerFD else { return }
        // A bounded batch per wake-up keeps one loop from starving its own connections.
        for _ in 0..<64 where isAccepting {
            let fd: Int32, peerAddress: String?
            do {
                guard let accepted = try Socket.accept(listenerFD) else { return }
                (fd, peerAddress) = accepted
            } catch {
                // Out of descriptors, say: stop accepting until the next sweep instead of spinning.
                context.configuration.errorLog("level=warning event=accept-failed error=\(LogFmt.value(error))")
                setListening(false)
                return
            }
            guard context.admitConnection() else {
                rejectOverCapacity(fd)
                continue
            }
            adopt(fd, peerAddress: peerAddress)
        }
    }

    /// Answers 503 on a connection past the cap and closes it at once.
    private func rejectOverCapacity(_ fd: Int32) {
        _ = Socket.read(fd, into: readBuffer)  // drop a request already sent, so close sends FIN, not RST
        var bytes: [UInt8] = []
        let response = HTTPError(
            .serviceUnavailable, code: "too-many-connections", detail: "The server is at its connection limit; retry shortly.",
            headers: ["Retry-After": "1"]
        ).response
        if case .bytes(let body) = response.body {
            encoder.append(response, body: body, includeBody: true, connection: .close, to: &bytes)
        }
        _ = bytes.withUnsafeBytes { Socket.write(fd, $0) }
        Glibc.close(fd)
    }

    private func setListening(_ isListening: Bool) {
        guard let listenerFD, isAccepting != isListening else { return }
        isAccepting = isListening
        if isListening {
            _ = backend.register(listenerFD, interest: .read, isShared: true)
        } else {
            backend.unregister(listenerFD)
        }
    }

    // MARK: cross-thread tasks

    /// Runs what other threads queued. Stream output is gathered first and each connection
    /// written once (one send for all the events it got since the last wake-up), then the
    /// broadcasts' `written` callbacks run.
    private func runTasks() {
        var toWrite: [Connection] = []
        var written: [@Sendable () -> Void] = []
        defer {
            for connection in toWrite {
                connection.awaitsWrite = false
                if !connection.isClosed { drive(connection) }  // one write for all its chunks
            }
            for callback in written { callback() }
        }
        for task in handle.takeTasks() {
            switch task {
            case .streamWrite(let key, let bytes):
                streamChunk(bytes, framed: nil, to: key, writeLater: &toWrite)
            case .streamBroadcast(let keys, let bytes, let callback):
                let framed = ResponseEncoder.chunk(bytes)  // once for every stream
                for key in keys { streamChunk(bytes, framed: framed, to: key, writeLater: &toWrite) }
                if let callback { written.append(callback) }
            case .streamFinish(let key):
                withConnection(key) { $0.machine.streamFinished() }
            case .streamAbort(let key):
                withConnection(key) { $0.machine.streamAborted() }
            case .deferredComplete(let key, let response):
                withConnection(key) { $0.machine.deferredResponseReady(response, encoder: &encoder) }
            case .beginShutdown:
                beginShutdown()
            }
        }
    }

    /// One step of the first job (`LoopExecutor`), then what it wrote to this loop's streams
    /// goes out, before the loop waits again.
    private func runJobStep() {
        guard let step = handle.nextStep() else { return }
        if !step() { handle.finishJob() }
        runTasks()
    }

    /// Adds a chunk to the output of the connection `key` names, if it is still open; the
    /// connection is written once `runTasks` has taken every task (noted in `writeLater`).
    private func streamChunk(_ bytes: [UInt8], framed: [UInt8]?, to key: ConnectionKey, writeLater: inout [Connection]) {
        guard let connection = connections[key.fd], connection.key == key else { return }
        connection.stream?.taken(bytes.count)
        connection.machine.streamChunk(bytes, framed: framed)
        if !connection.awaitsWrite {
            connection.awaitsWrite = true
            writeLater.append(connection)
        }
    }

    /// Feeds an event to the connection `key` names, if it is still open, and drives it.
    private func withConnection(_ key: ConnectionKey, _ event: (Connection) -> Void) {
        guard let connection = connections[key.fd], connection.key == key else { return }
        event(connection)
        drive(connection)
    }

    private func beginShutdown() {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = now + context.configuration.shutdownGracePeriod.milliseconds
        setListening(false)
        for connection in Array(connections.values) {
            connection.machine.shutdownBegan()
            drive(connection)
        }
    }

    // MARK: timeouts

    private func sweepTimeouts() {
        if !isAccepting && shutdownDeadline == nil { setListening(true) }
        for connection in Array(connections.values) {
            connection.machine.timerFired(now: now, encoder: &encoder)
            drive(connection)
        }
    }
}
