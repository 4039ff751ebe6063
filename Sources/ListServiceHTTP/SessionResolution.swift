import Foundation
import HTTPLite
import ListService

/// Finds the request's session: `X-Session-ID` for non-browser clients, else the `sid`
/// cookie; a new session's id goes back in a `Set-Cookie`.
struct SessionResolution {
    let session: Session
    /// Headers the response must carry (the cookie of a new session).
    let headers: HTTPHeaders

    static let cookieName = "sid"

    init(_ request: Request, store: SessionStore, now: Date) throws(HTTPError) {
        if let header = request.headers["X-Session-ID"] {
            guard SessionStore.isValidID(header) else {
                throw .invalidSessionID
            }
            session = store.session(id: header, adoptsUnknownID: true, now: now).session
            headers = HTTPHeaders()
            return
        }
        // An unknown or malformed cookie is replaced, never trusted to name a new session.
        let cookie = Self.cookieValue(request.headers.values(for: "Cookie"))
        let known = cookie.flatMap { SessionStore.isValidID($0) ? $0 : nil }
        let (session, isNew) = store.session(id: known, adoptsUnknownID: false, now: now)
        self.session = session
        headers =
            isNew
            ? ["Set-Cookie": "\(Self.cookieName)=\(self.session.id); Path=/; HttpOnly; SameSite=Lax"]
            : HTTPHeaders()
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
