/// A response: status, headers and a body that is either bytes or a stream.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: ResponseBody
    /// Set by a route that chose the answer's caching (`Cache-Control`) and content coding
    /// (`Content-Encoding`, `Vary`) itself, as a cached page or a static file does; a layer
    /// that adds defaults on the way out then leaves those alone.
    public var choseCachingAndCoding: Bool

    public init(
        status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .empty, choseCachingAndCoding: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.choseCachingAndCoding = choseCachingAndCoding
    }

    /// A fixed body with its content type. `headers` is consumed: a caller's last use of its
    /// headers hands them over, and adding `Content-Type` does not copy them.
    public init(
        status: HTTPStatus = .ok, contentType: String, bytes: [UInt8], headers: consuming HTTPHeaders = HTTPHeaders(),
        choseCachingAndCoding: Bool = false
    ) {
        headers.replaceOrAdd(name: "Content-Type", value: contentType)
        self.init(status: status, headers: headers, body: .bytes(bytes), choseCachingAndCoding: choseCachingAndCoding)
    }

    /// A JSON body in pieces, sent one after another (`ResponseBody.parts`). `headers` is consumed.
    public static func json(
        parts: [[UInt8]], status: HTTPStatus = .ok, headers: consuming HTTPHeaders = HTTPHeaders(), choseCachingAndCoding: Bool = false
    ) -> Response {
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return Response(status: status, headers: headers, body: .parts(parts), choseCachingAndCoding: choseCachingAndCoding)
    }

    /// A JSON body already encoded to bytes.
    public static func json(
        _ bytes: [UInt8], status: HTTPStatus = .ok, headers: consuming HTTPHeaders = HTTPHeaders(), choseCachingAndCoding: Bool = false
    ) -> Response {
        Response(
            status: status, contentType: "application/json", bytes: bytes, headers: headers, choseCachingAndCoding: choseCachingAndCoding)
    }
}

/// The content of a response.
public enum ResponseBody: Sendable {
    /// Fixed bytes, sent with a `Content-Length`.
    case bytes([UInt8])
    /// Fixed bytes in pieces, sent one after another with a `Content-Length` of their sum: a
    /// body made of a part of its own and a large part shared with other bodies (a grouped
    /// list's sections) is sent without joining them into one buffer first.
    case parts([[UInt8]])
    /// A body produced over time: the connection stays open and each chunk is written as it
    /// comes (chunked transfer coding on HTTP/1.1). The closure runs on the connection's loop
    /// thread once the head is sent; it may hand the stream to any thread.
    case stream(@Sendable (ResponseStream) -> Void)
    /// A streamed body with an end of its own (a file): as `stream`, except that a shutdown
    /// gives it the grace period to finish instead of ending it, and a producer that cannot
    /// finish it calls `ResponseStream.abort()`, so the client never takes part of it for
    /// the whole.
    case download(@Sendable (ResponseStream) -> Void)
    /// The whole response comes later, from any thread: the closure runs on the loop thread
    /// and hands `DeferredResponse` to whoever finishes the work (a disk write, say). The
    /// outer response's status and headers are ignored; requests pipelined behind it wait.
    case deferred(@Sendable (DeferredResponse) -> Void)

    public static let empty = ResponseBody.bytes([])

    /// A fixed body's length (its `Content-Length`); nil for a body that comes over time or later.
    var fixedCount: Int? {
        switch self {
        case .bytes(let bytes): bytes.count
        case .parts(let parts): parts.reduce(0) { $0 + $1.count }
        case .stream, .download, .deferred: nil
        }
    }

    /// A fixed body's bytes, its parts joined; nil for a body that comes over time or later.
    public var joinedBytes: [UInt8]? {
        switch self {
        case .bytes(let bytes): bytes
        case .parts(let parts): Array(parts.joined())
        case .stream, .download, .deferred: nil
        }
    }
}

extension Response {
    /// A response produced later by `start`'s caller, off the event loop.
    public static func deferred(_ start: @escaping @Sendable (DeferredResponse) -> Void) -> Response {
        Response(body: .deferred(start))
    }
}
