import HTTPLite
import ListService

/// A body fixed at build time (the contract): both codings made once at start-up, each with
/// its own ETag, served with a public max-age and answered 304 when the client has it.
struct StaticResource: Sendable {
    let contentType: String
    let identity: EncodedBody
    let gzip: EncodedBody?

    /// How long shared caches and browsers may reuse it without asking.
    static let cacheControl = "public, max-age=3600"

    init(contentType: String, bytes: [UInt8]) {
        self.contentType = contentType
        identity = EncodedBody(bytes: bytes, etag: ETag.make(for: bytes))
        let isWorthCompressing = bytes.count >= Compression.minimumBytes && Compression.isCompressible(contentType)
        gzip = isWorthCompressing ? Compression.encoded(bytes, etag: identity.etag) : nil
    }

    func response(to request: Request) -> Response {
        let chosen = gzip.flatMap { AcceptEncoding.acceptsGzip(request.headers) ? $0 : nil } ?? identity
        var headers: HTTPHeaders = ["ETag": chosen.etag, "Cache-Control": Self.cacheControl]
        if gzip != nil { headers.add(name: "Vary", value: "Accept-Encoding") }
        if chosen !== identity { headers.add(name: "Content-Encoding", value: "gzip") }
        if ConditionalRequest.ifNoneMatch(request.headers["If-None-Match"], matchesEitherCodingOf: identity.etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(contentType: contentType, bytes: chosen.bytes, headers: headers)
    }
}
