import Basics
import HTTPLite
import ListService

/// Turns a computed page into a response: `ETag`, `X-Cache`, the coding the client takes
/// (gzip kept with the page, so compressed once per page version), and 304 when the client
/// has the page in either coding. A list is per session (`Vary: Cookie, X-Session-ID`); an
/// item's row is the same for every session.
enum PageResponse {
    /// `compression`: the coding the client takes (`Compression.pageCompression(for:)`), nil for plain.
    static func make(
        _ page: ListPage, outcome: CacheOutcome, request: Request, compression: PageCompression?, headers: HTTPHeaders,
        isPerSession: Bool = true, metrics: ServiceMetrics
    ) -> Response {
        metrics.increment(.requests)
        ServerTimings.current?.note("cache", description: outcome.isHit ? "hit" : "miss")
        switch outcome {
        case .sessionHit: metrics.increment(.sessionHits)
        case .sharedHit: metrics.increment(.sharedHits)
        case .miss: metrics.increment(.misses)
        }
        // The compressed body (made once per page) when the client takes gzip and it is worth it;
        // nil for the plain body. A failed compression leaves the plain body, with its own tag.
        let compressed = compression.flatMap { page.bodyCount >= $0.minimumBytes ? page.compressed($0.compress) : nil }
        let encoded = compressed.flatMap { $0.etag == page.etag ? nil : $0 }
        var headers = headers
        headers.reserveCapacity(headers.count + 8)  // these, `Server-Timing` and what the front door adds
        headers.add(name: "ETag", value: encoded?.etag ?? page.etag)
        headers.add(name: "X-Cache", value: outcome.isHit ? "hit" : "miss")
        headers.add(name: "Cache-Control", value: "private, no-cache")
        headers.add(
            name: "Vary",
            value: isPerSession ? "Accept-Encoding, Accept-Language, Cookie, X-Session-ID" : "Accept-Encoding, Accept-Language")
        if encoded != nil { headers.add(name: "Content-Encoding", value: "gzip") }
        if ConditionalRequest.ifNoneMatch(request.headers["If-None-Match"], matchesEitherCodingOf: page.etag) {
            metrics.increment(.notModified)
            return Response(status: .notModified, headers: headers, choseCachingAndCoding: true)
        }
        // The headers are handed over: `Content-Type` is added to them without a copy. A plain
        // body with a shared tail (a grouped list's sections) goes out in its two parts.
        if encoded == nil, let tail = page.tailBytes {
            return .json(parts: [page.lead, tail], headers: consume headers, choseCachingAndCoding: true)
        }
        return .json(encoded?.bytes ?? page.lead, headers: consume headers, choseCachingAndCoding: true)
    }
}
