/// The trace of the request being answered, when its caller is tracing it (it sent a
/// `traceparent`): `<trace-id>-<span-id>`, the span being this server's. The HTTP binding
/// binds it around a request's handling; a write queued meanwhile keeps it, and its commit is
/// logged with it.
public enum RequestTrace {
    @TaskLocal public static var current: String?
}
