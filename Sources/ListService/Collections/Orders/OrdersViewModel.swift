import Foundation
import Synchronization

/// A session's orders list: its current criteria and the page they produced. A repeated
/// request is answered from here with no parsing, filtering, sorting or formatting; a change
/// of criteria or of the data recomputes (or borrows another session's equal page).
public final class OrdersViewModel: Sendable {
    private let current = Mutex<Current?>(nil)

    /// What the session last asked for and got.
    private struct Current {
        let requestKey: String
        let page: ListPage
    }

    public init() {}

    /// The page for `request`, and whether serving it cost any work.
    public func page(for request: ListRequest, engine: OrderListEngine) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let requestKey = request.cacheKey
        let version = engine.store.snapshot.version
        let now = engine.now
        if let hit = current.withLock({ current -> ListPage? in
            guard let current, current.requestKey == requestKey, current.page.isFresh(dataVersion: version, now: now) else {
                return nil
            }
            return current.page
        }) {
            return (hit, .sessionHit)
        }
        let criteria = try OrderCriteria(request, now: now)
        let (page, outcome) = try engine.page(for: criteria)
        current.withLock { $0 = Current(requestKey: requestKey, page: page) }
        return (page, outcome)
    }
}
