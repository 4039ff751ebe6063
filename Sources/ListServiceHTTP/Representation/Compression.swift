import HTTPLite
import ListService

/// gzip content coding of answers: JSON, YAML and text bodies of at least `minimumBytes`, for
/// clients whose `Accept-Encoding` takes it. Each coding has its own strong ETag (`"…-gzip"`),
/// and `If-None-Match` accepts either, as nginx and Apache do.
enum Compression {
    /// Smaller bodies go as they are: gzip's header and trailer would eat the saving.
    static let minimumBytes = 256

    /// Whether bodies of this media type (as the routes write it) shrink under gzip; not event
    /// streams, which stay uncompressed since compressed streams stall behind common proxies.
    static func isCompressible(_ contentType: String?) -> Bool {
        guard let type = contentType else { return false }
        if type.hasPrefix("text/") { return !type.hasPrefix("text/event-stream") }
        return type.hasPrefix("application/json") || type.hasPrefix("application/problem+json") || type.hasPrefix("application/yaml")
            || type.hasPrefix("image/svg+xml")
    }

    /// The strong ETag of the gzip coding of a body whose ETag is `etag`: `"abc"` → `"abc-gzip"`.
    static func gzipETag(_ etag: String) -> String {
        guard etag.hasSuffix("\"") else { return etag }
        return etag.dropLast() + "-gzip\""
    }

    /// The gzip coding of `body` with its ETag, for a cache to keep; the body itself if zlib fails.
    static func encoded(_ body: [UInt8], etag: String) -> EncodedBody {
        guard let bytes = Gzip.compress(body) else { return EncodedBody(bytes: body, etag: etag) }
        return EncodedBody(bytes: bytes, etag: gzipETag(etag))
    }

    /// Pages in gzip, made and counted by the caches that keep them, for a request whose
    /// client takes gzip; nil for one that does not.
    static func pageCompression(for request: Request) -> PageCompression? {
        AcceptEncoding.acceptsGzip(request.headers) ? gzipPages : nil
    }

    private static let gzipPages = PageCompression(minimumBytes: minimumBytes, compress: encoded)

    /// Compresses a fixed answer made for this request alone (metrics, a write's row, a
    /// problem) when the client takes gzip and it is worth it.
    static func compress(_ response: inout Response, for request: Request) {
        guard let body = response.body.joinedBytes, body.count >= minimumBytes, response.headers["Content-Encoding"] == nil,
            isCompressible(response.headers["Content-Type"]), AcceptEncoding.acceptsGzip(request.headers),
            let compressed = Gzip.compress(body)
        else { return }
        response.body = .bytes(compressed)
        response.headers.add(name: "Content-Encoding", value: "gzip")
        if let etag = response.headers["ETag"] { response.headers.replaceOrAdd(name: "ETag", value: gzipETag(etag)) }
    }
}
