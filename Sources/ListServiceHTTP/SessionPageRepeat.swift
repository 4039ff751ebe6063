import Foundation
import HTTPLite
import ListService

/// A session's list page, answered again to a repeat of its request (`RepeatGuard`) while the
/// request still names the same session and the session's list still holds the page: the
/// answer a session hit would give, counted as one.
final class SessionPageRepeat: RepeatGuard {
    private let page: ListPage
    private let session: Session
    private let purpose: ListPurpose
    /// The collection's `CollectionEndpoint.sessionHolds`.
    private let sessionHolds: @Sendable (ListPage, Session, ListPurpose) -> Bool
    private let service: CollectionService
    /// The first answer was a 304 (the client had the page).
    private let isNotModified: Bool

    init(
        page: ListPage, session: Session, purpose: ListPurpose, endpoint: CollectionEndpoint, service: CollectionService,
        isNotModified: Bool
    ) {
        (self.page, self.session, self.purpose) = (page, session, purpose)
        (sessionHolds, self.service, self.isNotModified) = (endpoint.sessionHolds, service, isNotModified)
    }

    /// A repeat is a session hit: it looks its session up and reads its page from the cache.
    func fieldsForRepeats(of first: HTTPHeaders) -> HTTPHeaders {
        var fields = first
        fields.replaceOrAdd(name: "X-Cache", value: "hit")
        fields.replaceOrAdd(name: "Server-Timing", value: #"cache;desc="hit""#)
        return fields
    }

    func verdict(onRepeatOf request: Request) -> RepeatVerdict {
        // The session is looked up (and kept alive) as the list's route does.
        guard let resolution = try? SessionResolution(request, store: service.sessions, now: service.now),
            resolution.session === session, resolution.headers.count == 0, sessionHolds(page, session, purpose)
        else { return .handle(request) }
        service.metrics.increment(.requests)
        service.metrics.increment(.sessionHits)
        if isNotModified { service.metrics.increment(.notModified) }
        return .sameAnswer
    }
}
