import Dispatch
import HTTPLite
import ListService

/// `POST /quakes/import`: a USGS FeatureCollection upserted by id (`CollectionService.importFeed`).
/// Parsing runs off the event loop, so a feed of tens of megabytes does not stall reads.
enum QuakeImportRoute {
    static func add(to router: inout Router, service: CollectionService, maxBodyBytes: Int) {
        router.post("/quakes/import", maxBodyBytes: maxBodyBytes, headCheck: JSONBody.headCheck(JSONBody.json)) { request in
            let bytes = request.body
            return .deferred { pending in
                DispatchQueue.global(qos: .userInitiated).async {
                    switch QuakeFeed.parse(bytes) {
                    case .failure(let refusal): pending.complete(refusal.httpError.response)
                    case .success(let feed):
                        service.importFeed(feed) { outcome in
                            switch outcome {
                            case .success(let summary): pending.complete(.json(summary))
                            case .failure(let rejection): pending.complete(rejection.httpError.response)
                            }
                        }
                    }
                }
            }
        }
    }
}
