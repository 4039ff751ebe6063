import Foundation
import HTTPLite
import ListService

/// Finds the request's session: `X-Session-ID` for non-browser clients, else the `sid`
/// cookie. A client that sends neither (curl, health checks, scripts) gets a cookie but no
/// session: one is made only when it comes back with the cookie, so anonymous requests leave
/// nothing behind. A session belongs to the identity that made it: the same id sent with
/// another account (or role) names another session, never the first one's view-models.
struct SessionResolution {
    /// Nil for a request that names no session and does not need one.
    let session: Session?
    /// Headers the response must carry (the cookie a new client should send back).
    let headers: HTTPHeaders

    static let cookieName = "sid"

    /// `needsSession`: the request stores something in its session (a selection), so one is
    /// made even for a client that named none.
    init(_ request: borrowing Request, store: SessionStore, now: Date, needsSession: Bool = false) throws(HTTPError) {
        let identity = request.caller.identity
        /// The store's key of the client's session id: the id, and the identity it belongs to.
        func bound(_ id: String) -> String { identity.map { "\(id)\u{1}\($0.role.rawValue)\u{1}\($0.subject)" } ?? id }
        if let header = request.headers["X-Session-ID"] {
            guard SessionStore.isValidID(header) else { throw .invalidSessionID }
            session = store.session(id: bound(header), adoptsUnknownID: true, now: now).session
            headers = HTTPHeaders()
            return
        }
        // A cookie of the form the service sets names (or, coming back for the first time,
        // makes) the session; anything else is replaced by a new cookie.
        if let cookie = Self.cookieValue(request.headers.values(for: "Cookie")), SessionStore.isIssuedID(cookie) {
            session = store.session(id: bound(cookie), adoptsUnknownID: true, now: now).session
            headers = HTTPHeaders()
            return
        }
        let id = SessionStore.makeID()
        session = needsSession ? store.session(id: bound(id), adoptsUnknownID: true, now: now).session : nil
        headers = ["Set-Cookie": "\(Self.cookieName)=\(id); Path=/; HttpOnly; SameSite=Lax"]
    }

    static func cookieValue(_ headers: [String]) -> String? {
        for header in headers {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}
