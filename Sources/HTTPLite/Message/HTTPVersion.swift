/// The HTTP version of a request; HTTPLite speaks 1.0 and 1.1 only.
public enum HTTPVersion: String, Sendable, Hashable {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The cases spell the protocol's versions, as SwiftNIO's do.
    case http1_0 = "HTTP/1.0"
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case http1_1 = "HTTP/1.1"
}
