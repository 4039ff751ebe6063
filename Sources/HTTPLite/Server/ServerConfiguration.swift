import Basics

/// Everything an `HTTPServer` can be told; defaults suit a local service.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 asks the kernel for a free port; `HTTPServer.port` tells which.
    public var port: UInt16 = 8080
    /// Event-loop threads; one per core the process may run on.
    public var loopCount = max(1, UsableCores.count)
    /// Open connections past which new ones get 503 and are closed.
    public var maxConnections = 10_000
    public var limits = HTTPLimits()
    /// Judges requests with a body from their heads (refusals, and a smaller body limit for
    /// some routes) before the body is read; nil: every body up to `limits.maxBodyBytes` is read.
    public var headScreen: HeadScreen?
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` name the client: a request from
    /// one has the address it names as `Request.remoteAddress`; none by default.
    public var trustedProxies = TrustedProxies.none
    /// How long a keep-alive connection may sit idle between requests.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a client may take to send a whole request head (slowloris guard).
    public var headerReadTimeout: Duration = .seconds(10)
    /// How long a client may take to send a request body once its head is in.
    public var bodyReadTimeout: Duration = .seconds(60)
    /// The slowest average a body may arrive at (bytes per second), judged once
    /// `minBodyRateGrace` has passed, so a trickle cannot hold a connection for the whole timeout.
    public var minBodyBytesPerSecond = 4096
    public var minBodyRateGrace: Duration = .seconds(5)
    /// How long shutdown waits for in-flight requests before closing what is left.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// One line per request on stderr.
    public var isAccessLogEnabled = true
    /// Where error and warning lines go (a handler's unexpected error, accept failures):
    /// stderr by default; tests keep them to themselves.
    public var errorLog: @Sendable (String) -> Void = StandardError.writeLine
    public var listenBacklog: Int32 = 1024
    /// What the event loops wait with: epoll on Linux by default, or portable poll(2).
    public var eventBackend = EventBackendKind.platformDefault

    public init() {}
}
