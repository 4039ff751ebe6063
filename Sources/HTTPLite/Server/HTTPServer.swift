import Basics
import Dispatch
import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 server on non-blocking sockets and epoll (or poll(2), `eventBackend`).
///
/// Threading model: `loopCount` event-loop threads, each with its own backend. All loops
/// watch the one listening socket (with epoll, EPOLLEXCLUSIVE: a new connection wakes one loop);
/// the loop that accepts a connection owns it for its whole life, reading, parsing, calling
/// the handler and writing on that thread alone, so connection state has no locks. The
/// handler runs synchronously on the loop thread and must be `Sendable`; a handler that must
/// wait returns `.deferred` and some other thread completes it. Shared state handlers read is
/// immutable or behind a lock (`Locked`). Other threads reach a loop only through its
/// `LoopHandle`: a locked task queue plus the backend's waker (deferred responses, stream
/// chunks, shutdown), and a job queue whose steps the loop runs between its reads and writes
/// (`LoopExecutor`). Each connection's life is a `ConnectionStateMachine`; the loop only
/// performs its actions.
public final class HTTPServer: Sendable {
    /// The port actually bound (useful when the configuration asked for port 0).
    public let port: UInt16
    private let context: ServerContext
    private let loops: [LoopHandle]
    private let stopped = DispatchGroup()

    /// Binds the listening socket and starts the event loops; returns once serving.
    /// `beforeServing` gets an executor per loop (work run between its reads and writes),
    /// before any loop starts: whatever is to run there can be set up before a request arrives.
    public init(
        configuration: ServerConfiguration, handler: @escaping @Sendable (Request) throws -> Response,
        beforeServing: ([LoopExecutor]) -> Void = { _ in }
    ) throws {
        signal(SIGPIPE, SIG_IGN)  // a vanished peer must never kill the process
        let listener = try Socket.makeListener(
            host: configuration.host, port: configuration.port, backlog: configuration.listenBacklog)
        let context = ServerContext(configuration: configuration, handler: handler)
        // Every backend is made (and watches the listener) before any loop starts, so set-up
        // errors surface here; each then moves to its loop's thread.
        var loops: [LoopHandle] = []
        var backends: [Handover<any EventBackend>] = []
        do {
            for _ in 0..<max(1, configuration.loopCount) {
                let backend = try configuration.eventBackend.make()
                guard backend.register(listener.fd, interest: .read, isShared: true) else { throw SocketError("watching the listener") }
                loops.append(LoopHandle(waker: backend.waker))
                backends.append(Handover(backend))
            }
        } catch {
            close(listener.fd)
            throw error
        }
        self.port = listener.port
        self.context = context
        self.loops = loops
        beforeServing(loops.map(LoopExecutor.init))
        let running = Atomic<Int>(loops.count)
        for (index, (handle, handover)) in zip(loops, backends).enumerated() {
            stopped.enter()
            let thread = Thread { [stopped] in
                ThreadName.set("http-loop-\(index)")  // `top -H` and `perf` showed a dispatch queue's name for the loops
                EventLoop(handle: handle, backend: handover.take(), listenerFD: listener.fd, context: context).run()
                // The last loop out closes the listener, so no loop can accept on a reused fd.
                if running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { close(listener.fd) }
                stopped.leave()
            }
            thread.start()
        }
    }

    /// Live counters (open connections, requests, rejections).
    public var statistics: ServerStatistics { context.statistics }

    /// Stops accepting, lets in-flight requests finish within the grace period, then closes
    /// everything. Returns at once; `waitUntilStopped()` waits for the end.
    public func shutdown() {
        context.isShuttingDown.store(true, ordering: .releasing)
        for loop in loops { loop.submit(.beginShutdown) }
    }

    /// Blocks until every loop has finished.
    public func waitUntilStopped() {
        stopped.wait()
    }
}
