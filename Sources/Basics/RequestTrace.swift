import Dispatch

/// The trace of the request being answered, when its caller is tracing it (it sent a
/// `traceparent`): `<trace-id>-<span-id>`, the span being this server's. The HTTP binding
/// binds it around a request's handling; a write queued meanwhile keeps it, and its commit is
/// logged with it.
public enum RequestTrace {
    @TaskLocal public static var current: String?

    /// Runs `work` off the event loop (a large body parsed, an import read), the current
    /// trace still bound: what `work` queues keeps the request's trace.
    public static func offLoop(_ work: @escaping @Sendable () -> Void) {
        let trace = current
        DispatchQueue.global(qos: .userInitiated).async { $current.withValue(trace, operation: work) }
    }
}
