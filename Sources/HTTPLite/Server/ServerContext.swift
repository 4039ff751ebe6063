import Basics
import Synchronization

/// What every loop shares: configuration, the handler and the counters. Immutable or atomic.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let handler: @Sendable (Request) throws -> Response
    let statistics = ServerStatistics()
    private let requestSerial = Atomic<UInt64>(0)
    /// Set by `HTTPServer.shutdown()` before the loops hear of it, so a response being
    /// computed at that moment already says `Connection: close`.
    let isShuttingDown = Atomic<Bool>(false)

    init(configuration: ServerConfiguration, handler: @escaping @Sendable (Request) throws -> Response) {
        self.configuration = configuration
        self.handler = handler
    }

    /// Runs the handler; a thrown `HTTPError` becomes its problem response, anything else a
    /// generic 500 whose details go to the log under a reference.
    func respond(to request: Request) -> Response {
        do {
            return try handler(request)
        } catch let error as HTTPError {
            return error.response
        } catch {
            let reference = requestSerial.add(1, ordering: .relaxed).newValue
            configuration.errorLog(
                "level=error event=internal-error request=\(reference) path=\(LogFmt.value(request.path)) error=\(LogFmt.value(error))")
            return HTTPError(
                .internalServerError, code: "internal-error",
                detail: "The server could not answer this request (reference \(reference)).",
                extensions: [("reference", "\(reference)")]
            ).response
        }
    }

    /// Counts a new connection; false when the cap is reached (the caller rejects it).
    func admitConnection() -> Bool {
        let open = statistics.openConnections.add(1, ordering: .relaxed).newValue
        guard open <= configuration.maxConnections else {
            statistics.openConnections.subtract(1, ordering: .relaxed)
            statistics.rejectedConnections.add(1, ordering: .relaxed)
            return false
        }
        statistics.acceptedConnections.add(1, ordering: .relaxed)
        return true
    }

    func connectionClosed() {
        statistics.openConnections.subtract(1, ordering: .relaxed)
    }
}

/// Live counters of a running server, for metrics endpoints.
public final class ServerStatistics: Sendable {
    let openConnections = Atomic<Int>(0)
    let acceptedConnections = Atomic<Int>(0)
    let rejectedConnections = Atomic<Int>(0)
    let requests = Atomic<Int>(0)
    let malformedRequests = Atomic<Int>(0)

    /// A consistent-enough reading of every counter.
    public var snapshot: Snapshot {
        Snapshot(
            openConnections: openConnections.load(ordering: .relaxed),
            acceptedConnections: acceptedConnections.load(ordering: .relaxed),
            rejectedConnections: rejectedConnections.load(ordering: .relaxed),
            requests: requests.load(ordering: .relaxed),
            malformedRequests: malformedRequests.load(ordering: .relaxed))
    }

    /// Counter values at one moment.
    public struct Snapshot: Sendable, Equatable {
        public let openConnections: Int
        public let acceptedConnections: Int
        public let rejectedConnections: Int
        public let requests: Int
        public let malformedRequests: Int
    }
}
