/// What the server decides from a request's head alone, before it reads a byte of the body.
public enum HeadVerdict: Sendable {
    /// Read a body of at most this many bytes (never more than `HTTPLimits.maxBodyBytes`);
    /// `sender` (what the screen learned of who sent it) becomes the whole request's
    /// `Request.sender`, so the application need not judge the head again.
    case accept(maxBodyBytes: Int, sender: (any Sendable)? = nil)
    /// Answer this at once: the body is never buffered (a small one is skipped as it arrives,
    /// otherwise the connection closes after the answer), and `Expect: 100-continue` gets
    /// this answer instead of `100 Continue`.
    case refuse(Response)
}

/// Judges a request that announces a body (or expects `100 Continue`) from its head: the
/// request as parsed, with an empty body. Runs on the event loop, so it must be quick: the
/// checks that need only the head (host, credentials, origin, route, method, media type, size).
public typealias HeadScreen = @Sendable (Request) -> HeadVerdict
