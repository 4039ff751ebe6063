import Foundation
import Glibc
import HTTPLite
import ListService
import ListServiceAuth

/// Who sent a request, from its `Authorization: Bearer` credential: a token (a JWT, verified
/// by `tokens`) is a person's identity, an API key its holder's (the role `service`), no
/// credential an anonymous caller. A credential that does not verify is refused (401) even
/// where none is needed: a client must learn its token is bad. A token is only ever read
/// from the header, never from the query string.
package struct Credentials: Sendable {
    /// Verifies tokens; nil when the service has no token keys (no `--jwt-keys`, no demo identities).
    package let tokens: TokenAuthority?
    /// Whether token keys were configured (`--jwt-keys`): then reading a collection that is
    /// not public, and every write, needs an identity.
    package let requiresIdentity: Bool
    /// Tickets that stand for a signed-in caller on a live stream's address.
    let tickets = LiveTickets()
    let clock: @Sendable () -> Date

    package init(tokens: TokenAuthority?, requiresIdentity: Bool, clock: @escaping @Sendable () -> Date = Date.init) {
        self.tokens = tokens
        self.requiresIdentity = requiresIdentity
        self.clock = clock
    }

    /// No tokens: callers are anonymous or hold an API key.
    package static let none = Credentials(tokens: nil, requiresIdentity: false)

    /// Where a caller signs in: open to anonymous callers whatever keys and tokens require.
    /// One path, compared as a string (a set's look-up hashed every request's path).
    static let signInPath = AuthRoutes.demoPath

    /// The caller of `request`, or the 401 to answer (nothing has changed). `keys` decides
    /// what an anonymous caller may do; `changesData`: whether the request's route may change
    /// data (`Router.changesData`), which needs more than a read.
    func caller(of request: Request, keys: APIKeys, changesData: Bool) throws(HTTPError) -> Caller {
        let header = request.headers["Authorization"]
        guard let header, let presented = Self.bearerToken(header) else {
            if let header, Self.isEmptyBearer(header) { throw Self.emptyBearer }
            if let ticket = Self.liveTicket(of: request) {
                guard let identity = tickets.redeem(ticket, now: clock()) else {
                    throw Self.unauthorized(
                        "The live ticket is not valid: it was used, it expired, or it was never issued.", error: "invalid_token")
                }
                return .identified(identity)
            }
            if request.path == Self.signInPath { return .anonymous }
            if let refusal = keys.anonymousRefusal(of: request, changesData: changesData) { throw refusal }
            if requiresIdentity && changesData {
                throw Self.unauthorized("Changes need a signed-in caller: send Authorization: Bearer <token>.", error: nil)
            }
            return .anonymous
        }
        if let tokens, Self.isTokenShaped(presented) {
            switch tokens.verify(presented, now: clock()) {
            case .success(let verified): return .identified(verified.identity)
            case .failure(let refusal): throw Self.unauthorized(refusal.detail, error: "invalid_token")
            }
        }
        guard let number = keys.number(of: Array(presented.utf8)) else {
            throw Self.unauthorized(tokens == nil ? "The API key is not valid." : "The bearer token is not valid.", error: "invalid_token")
        }
        // Each key its own caller (its own rate), all of the role service.
        return .identified(Identity(subject: "api-key-\(number)", role: .service))
    }

    /// The reader of a collection: a collection that is not public needs an identity where
    /// tokens are required (401).
    func reader(of request: Request, isPublic: Bool) throws(HTTPError) -> Caller {
        let caller = request.caller
        if requiresIdentity && !isPublic && caller == .anonymous {
            throw Self.unauthorized("This list needs a signed-in caller: send Authorization: Bearer <token>.", error: nil)
        }
        return caller
    }

    /// The `ticket` of a live stream's request (`GET /…/live?ticket=…`); nil for any other.
    static func liveTicket(of request: Request) -> String? {
        guard request.method == .get || request.method == .head, request.path.hasSuffix("/live") else { return nil }
        return request.query.pairs.last { $0.name == "ticket" }?.value
    }

    /// The token of `Bearer <token>` (the scheme in any case, RFC 9110 §11.1), spaces and tabs
    /// around it left out. Read byte by byte: it runs on every request that carries one.
    static func bearerToken(_ header: String) -> String? {
        guard let afterScheme = afterBearerScheme(header), afterScheme.first == UInt8(ascii: " "),
            let start = afterScheme.firstIndex(where: { !isBlank($0) }), let last = afterScheme.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return String(header[start...last])
    }

    /// Whether `header` names the Bearer scheme but holds no credential (`Bearer`, `Bearer `):
    /// a client whose token went missing, which must not pass for an anonymous caller.
    /// (Another scheme is not read at all: a proxy in front may pass on its own `Basic`.)
    static func isEmptyBearer(_ header: String) -> Bool { afterBearerScheme(header)?.allSatisfy(isBlank) == true }

    /// What follows `header`'s scheme when the scheme is `Bearer` in any case; nil for another.
    private static func afterBearerScheme(_ header: String) -> Substring.UTF8View? {
        let bytes = header.utf8
        let scheme = "bearer".utf8
        guard bytes.count >= scheme.count, zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        return header[bytes.index(bytes.startIndex, offsetBy: scheme.count)...].utf8
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// A Bearer credential without its token: a malformed token (RFC 6750 §3.1, `invalid_token`, 401).
    static let emptyBearer = unauthorized(
        "Authorization names the Bearer scheme but holds no token or key: send Authorization: Bearer <token>, or no Authorization.",
        error: "invalid_token", parameter: "Authorization")

    /// Whether `credential` has the shape of a JWS compact token: three parts, two dots.
    static func isTokenShaped(_ credential: String) -> Bool {
        var credential = credential
        return credential.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            var dots = 0, offset = 0
            // memchr from dot to dot: a token's 600 bytes are not walked one by one.
            while offset < bytes.count, let dot = memchr(base + offset, Int32(UInt8(ascii: ".")), bytes.count - offset) {
                dots += 1
                if dots > 2 { return false }
                offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(dot)) + 1
            }
            return dots == 2
        }
    }

    /// A 401 with the Bearer challenge (RFC 6750 §3), `error` when a credential was sent and
    /// failed; `parameter` names the header when the refusal is about its form.
    static func unauthorized(_ detail: String, error: String?, parameter: String? = nil) -> HTTPError {
        let challenge = "Bearer realm=\"listservice\"" + (error.map { ", error=\"\($0)\"" } ?? "")
        return HTTPError(
            .unauthorized, code: "unauthorized", detail: detail, parameter: parameter, headers: ["WWW-Authenticate": challenge])
    }
}

extension Request {
    /// Who sent the request, as the front door established it (`ServiceHandler`).
    var caller: Caller { sender as? Caller ?? .anonymous }
}
