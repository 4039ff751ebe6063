import Foundation
import Basics

/// A session's list (or map) of one collection: its current criteria and the page they
/// produced. A repeated request is answered from here with no parsing, filtering, sorting or
/// formatting; a change of criteria, selection or data recomputes (or borrows another
/// session's equal page).
package final class ListViewModel<C: ListCollection>: PageHolder {
    package let purpose: ListCriteria<C>.Purpose
    private let current = Locked<Current?>(nil)
    /// Where the bytes of the held page are counted (and bounded).
    private let memory: PageMemory

    /// What the session last asked for and got.
    private struct Current {
        let requestKey: ListRequest.Key
        let selection: String?
        let page: ListPage
    }

    init(purpose: ListCriteria<C>.Purpose, memory: PageMemory) {
        self.purpose = purpose
        self.memory = memory
    }

    /// The page for `request` in `session`, and whether serving it cost any work.
    package func page(
        for request: ListRequest, session: Session, engine: CollectionEngine<C>
    ) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let requestKey = request.cacheKey
        let selection = C.sharesSelection ? session.selection(in: C.name) : nil
        let now = engine.now
        if let hit = current.withLock({ current -> ListPage? in
            // A coding asked for the first time is made where the shared cache counts it too.
            guard let current, current.requestKey == requestKey, current.selection == selection,
                current.page.isFresh(now: now), !current.page.lacksCoding(request.compression)
            else { return nil }
            return current.page
        }) {
            return (hit, .sessionHit)
        }
        let (page, outcome) = try Self.page(for: request, purpose: purpose, selection: selection, engine: engine)
        current.withLock { $0 = Current(requestKey: requestKey, selection: selection, page: page) }
        memory.hold(page, by: self)
        return (page, outcome)
    }

    /// Whether the list still holds `page`, fresh, for the session's selection: a repeat of
    /// the request that got it gets it again with nothing recomputed.
    package func stillHolds(_ page: ListPage, session: Session, now: Date) -> Bool {
        let selection = C.sharesSelection ? session.selection(in: C.name) : nil
        return current.withLock { $0?.page === page && $0?.selection == selection } && page.isFresh(now: now)
    }

    func dropPage() { current.withLock { $0 = nil } }

    /// The page for `request` with no session (a client that keeps no cookie): from the
    /// shared caches, or computed; nothing is kept for the client.
    package static func page(
        for request: ListRequest, purpose: ListPurpose, selection: String? = nil, engine: CollectionEngine<C>
    ) throws(ListServiceError) -> (ListPage, CacheOutcome) {
        let criteria = try ListCriteria<C>(request, now: engine.now, purpose: purpose)
        // A page that echoes the selection is a new page each time: the shared one is not compressed for it.
        let shared = C.sharesSelection ? nil : request.compression
        var (page, outcome) =
            purpose == .map ? engine.map(for: criteria, compression: shared) : try engine.page(for: criteria, compression: shared)
        if C.sharesSelection {
            page = page.echoing(selectedID: selection)
            _ = page.prepare(request.compression)
        }
        return (page, outcome)
    }
}
