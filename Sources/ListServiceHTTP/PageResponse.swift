import HTTPLite
import ListService

/// Turns a computed page into a response: `ETag`, `X-Cache`, the coding the client takes
/// (gzip kept with the page, so compressed once per page version), and 304 when the client
/// has the page in either coding. A list is per session (`Vary: Cookie, X-Session-ID`); an
/// item's row is the same for every session.
enum PageResponse {
    static func make(
        _ page: ListPage, outcome: CacheOutcome, request: Request, headers: HTTPHeaders, isPerSession: Bool = true, metrics: ServiceMetrics
    ) -> Response {
        metrics.increment(.requests)
        switch outcome {
        case .sessionHit: metrics.increment(.sessionHits)
        case .sharedHit: metrics.increment(.sharedHits)
        case .miss: metrics.increment(.misses)
        }
        let isGzip = page.body.count >= Compression.minimumBytes && Compression.acceptsGzip(request)
        var headers = headers
        headers.add(name: "ETag", value: isGzip ? Compression.gzipETag(page.etag) : page.etag)
        headers.add(name: "X-Cache", value: outcome.isHit ? "hit" : "miss")
        headers.add(name: "Cache-Control", value: "private, no-cache")
        headers.add(
            name: "Vary",
            value: isPerSession ? "Accept-Encoding, Accept-Language, Cookie, X-Session-ID" : "Accept-Encoding, Accept-Language")
        if isGzip { headers.add(name: "Content-Encoding", value: "gzip") }
        let ifNoneMatch = request.headers["If-None-Match"]
        if ConditionalRequest.ifNoneMatch(ifNoneMatch, matches: page.etag)
            || ConditionalRequest.ifNoneMatch(ifNoneMatch, matches: Compression.gzipETag(page.etag))
        {
            metrics.increment(.notModified)
            return Response(status: .notModified, headers: headers)
        }
        guard isGzip else { return .json(page.body, headers: headers) }
        let encoded = page.compressed(Compression.encoded)
        guard encoded.etag != page.etag else {  // zlib failed: the plain body
            headers.remove(name: "Content-Encoding")
            headers.replaceOrAdd(name: "ETag", value: page.etag)
            return .json(page.body, headers: headers)
        }
        return .json(encoded.bytes, headers: headers)
    }
}
