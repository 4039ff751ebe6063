/// The HTTP version of a request; HTTPLite speaks 1.0 and 1.1 only.
public enum HTTPVersion: String, Sendable, Hashable {
    case http1_0 = "HTTP/1.0"
    case http1_1 = "HTTP/1.1"
}
