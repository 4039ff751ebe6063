import HTTPLite

/// Cross-origin resource sharing (`--cors-origin`): which browser origins may read the
/// service's answers and send it writes. An origin listed by name also gets credentials (the
/// `sid` cookie); `*` lets any origin in without them. Origins not allowed get no CORS headers
/// (the browser then withholds the answer), a 403 for a preflight and for an unsafe method.
package struct CORSPolicy: Sendable {
    /// Origins named by `--cors-origin`, as browsers serialize them (`https://app.example`).
    private let listed: Set<String>
    private let allowsAnyOrigin: Bool

    /// The request headers a preflight may ask for.
    static let allowedHeaders = "Content-Type, If-Match, If-None-Match, Authorization, X-Session-ID, Last-Event-ID, Idempotency-Key"
    /// The response headers a script may read besides the safelisted ones.
    static let exposedHeaders = "ETag, Location, X-Cache, Retry-After, Idempotent-Replayed"
    /// How long a browser may keep a preflight's answer, in seconds (Chromium caps it at 7200).
    static let maxAgeSeconds = 7200

    /// `origins` as given to `--cors-origin` (each checked by `validate(_:)`); none turns CORS off.
    package init(origins: [String]) {
        listed = Set(origins.filter { $0 != "*" }.map(Self.normalized))
        allowsAnyOrigin = origins.contains("*")
    }

    package static let off = CORSPolicy(origins: [])

    /// Whether any origin is allowed: answers then vary by `Origin`.
    var isEnabled: Bool { allowsAnyOrigin || !listed.isEmpty }

    /// How an origin is treated.
    enum Grant: Equatable {
        /// Listed by name: its own origin echoed, with credentials.
        case listed
        /// Allowed through `*`: no credentials.
        case anyOrigin
        case refused
    }

    func grant(for origin: String) -> Grant {
        if listed.contains(Self.normalized(origin)) { return .listed }
        return allowsAnyOrigin && origin != "null" ? .anyOrigin : .refused
    }

    /// The headers an allowed origin's answer carries (none for a refused one).
    func responseHeaders(for origin: String) -> HTTPHeaders {
        switch grant(for: origin) {
        case .listed:
            [
                "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true",
                "Access-Control-Expose-Headers": Self.exposedHeaders,
            ]
        case .anyOrigin: ["Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": Self.exposedHeaders]
        case .refused: [:]
        }
    }

    /// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`) from an
    /// allowed origin, for a path whose methods are `allow` (the router's `Allow`).
    func preflightHeaders(for origin: String, allow: String) -> HTTPHeaders {
        var headers = responseHeaders(for: origin)
        headers.remove(name: "Access-Control-Expose-Headers")
        headers.add(name: "Access-Control-Allow-Methods", value: allow)
        headers.add(name: "Access-Control-Allow-Headers", value: Self.allowedHeaders)
        headers.add(name: "Access-Control-Max-Age", value: "\(Self.maxAgeSeconds)")
        return headers
    }

    /// Nil when `value` can be given to `--cors-origin`, else why not.
    package static func validate(_ value: String) -> String? {
        if value == "*" { return nil }
        let lower = value.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return "must be * or an origin such as https://app.example (scheme, host, optional port)"
        }
        let rest = lower.drop { $0 != "/" }.dropFirst(2)
        guard !rest.isEmpty, !rest.dropLast(rest.hasSuffix("/") ? 1 : 0).contains("/"), !rest.contains("?"), !rest.contains("#") else {
            return "must be an origin (scheme, host, optional port), with no path: \(value)"
        }
        return nil
    }

    /// An origin as browsers send it: scheme and host lowercased, no trailing slash.
    private static func normalized(_ origin: String) -> String {
        var origin = origin.lowercased()
        if origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }
}
