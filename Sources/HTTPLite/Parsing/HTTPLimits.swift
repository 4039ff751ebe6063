/// Size limits on what a client may send; each breach has its own status.
public struct HTTPLimits: Sendable {
    /// Longest request line before 414.
    public var maxRequestLineLength = 8 * 1024
    /// Largest header section (request line included) before 431; also caps chunked trailers.
    public var maxHeaderBytes = 16 * 1024
    /// Most header fields before 431.
    public var maxHeaderCount = 100
    /// Largest body (after chunked decoding) before 413.
    public var maxBodyBytes = 1024 * 1024

    public init() {}
}
