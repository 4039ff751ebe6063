import HTTPLite
import ListService

/// A body fixed at build time (the contract, the web front end): both codings made once at
/// start-up, each with its own ETag, served with its cache policy and fixed headers, and
/// answered 304 when the client has it.
struct StaticResource: Sendable {
    let contentType: String
    let identity: EncodedBody
    let gzip: EncodedBody?
    let cacheControl: String
    let fixedHeaders: HTTPHeaders

    /// How long shared caches and browsers may reuse the contract without asking.
    static let publicHour = "public, max-age=3600"

    init(contentType: String, bytes: [UInt8], cacheControl: String = publicHour, headers: HTTPHeaders = [:]) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        fixedHeaders = headers
        identity = EncodedBody(bytes: bytes, etag: ETag.make(for: bytes))
        let isWorthCompressing = bytes.count >= Compression.minimumBytes && Compression.isCompressible(contentType)
        gzip = isWorthCompressing ? Compression.encoded(bytes, etag: identity.etag) : nil
    }

    func response(to request: Request) -> Response {
        let chosen = gzip.flatMap { AcceptEncoding.acceptsGzip(request.headers) ? $0 : nil } ?? identity
        var headers = fixedHeaders
        headers.add(name: "ETag", value: chosen.etag)
        headers.add(name: "Cache-Control", value: cacheControl)
        if gzip != nil { headers.add(name: "Vary", value: "Accept-Encoding") }
        if chosen !== identity { headers.add(name: "Content-Encoding", value: "gzip") }
        if ConditionalRequest.ifNoneMatch(request.headers["If-None-Match"], matchesEitherCodingOf: identity.etag) {
            return Response(status: .notModified, headers: headers, choseCachingAndCoding: true)
        }
        return Response(contentType: contentType, bytes: chosen.bytes, headers: headers, choseCachingAndCoding: true)
    }
}
