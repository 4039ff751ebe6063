import HTTPLite
import ListService

/// Turns a computed page into a response: `ETag`, `X-Cache`, and 304 when the client has it.
enum PageResponse {
    static func make(_ page: ListPage, outcome: CacheOutcome, request: Request, headers: HTTPHeaders, metrics: ServiceMetrics) -> Response {
        metrics.increment(.requests)
        switch outcome {
        case .sessionHit: metrics.increment(.sessionHits)
        case .sharedHit: metrics.increment(.sharedHits)
        case .miss: metrics.increment(.misses)
        }
        var headers = headers
        headers.add(name: "ETag", value: page.etag)
        headers.add(name: "X-Cache", value: outcome.isHit ? "hit" : "miss")
        headers.add(name: "Cache-Control", value: "private, no-cache")
        headers.add(name: "Vary", value: "Accept-Language, Cookie, X-Session-ID")
        if ConditionalRequest.ifNoneMatch(request.headers["If-None-Match"], matches: page.etag) {
            metrics.increment(.notModified)
            return Response(status: .notModified, headers: headers)
        }
        return .json(page.body, headers: headers)
    }
}
