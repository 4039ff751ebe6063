/// One client connection's state. Owned by exactly one event loop and touched only on its
/// thread, so it needs no locking.
final class Connection {
    /// What the connection is doing between reads and writes.
    enum Phase {
        /// Reading and answering requests.
        case serving
        /// A streaming response is in progress; pipelined requests wait behind it.
        case streaming(ResponseStream, isChunked: Bool, keepAlive: Bool)
        /// The handler answers later (`DeferredResponse`); pipelined requests wait behind it.
        case awaitingResponse(PendingRequest)
        /// The last response is queued; close once it is written.
        case closingAfterFlush
        /// Our side is shut down; unread input is drained until the client closes, so the
        /// last response is not destroyed by a reset (a "lingering close").
        case lingering(until: Int64)
    }

    let key: ConnectionKey
    var fd: Int32 { key.fd }
    var phase = Phase.serving
    var inbound = InboundBuffer()
    var parser: RequestParser
    var outbound: [UInt8] = []
    var outboundIndex = 0
    /// The client shut down its sending side; answer what arrived, then close.
    var isInputClosed = false
    /// Epoll events currently registered.
    var registeredEvents: UInt32
    /// Monotonic milliseconds of the last byte read or written.
    var lastProgress: Int64
    /// When the first byte of the request being read arrived; nil between requests.
    var requestStartedAt: Int64?
    /// Bytes read on this connection so far.
    var bytesReceived = 0
    /// When the timeout sweep first saw the current request's body being read, and how many
    /// bytes had arrived then; nil while no body is being read.
    var bodyWatch: (since: Int64, bytesReceived: Int)?

    init(key: ConnectionKey, limits: HTTPLimits, bodyLimit: BodyLimit?, registeredEvents: UInt32, now: Int64) {
        self.key = key
        self.lastProgress = now
        self.parser = RequestParser(limits: limits, bodyLimit: bodyLimit)
        self.registeredEvents = registeredEvents
    }

    var pendingOutputCount: Int { outbound.count - outboundIndex }

    /// What a deferred response needs from its request when it arrives.
    struct PendingRequest {
        let method: HTTPMethod
        let path: String
        let version: HTTPVersion
        let keepAlive: Bool
        let started: Int64
    }

    var isClosingAfterFlush: Bool {
        if case .closingAfterFlush = phase { return true }
        return false
    }

    /// Nothing received, nothing owed: safe to close at once during shutdown.
    var isIdle: Bool {
        if case .serving = phase { return inbound.isEmpty && pendingOutputCount == 0 && !parser.isMidRequest }
        return false
    }
}
