import Foundation
import HTTPLite
import ListServiceAuth
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// A session's list page may be answered again to a repeat of its request on a connection
/// (`RepeatGuard`), but only while a fresh handling would give the very same answer: the same
/// caller passes the front door again, the session still holds the page, the data has not
/// changed; and a repeat is counted as the session hit it is.
@Suite struct RepeatedPageTests {
    let service = CollectionService(
        stores: [CollectionState<Orders>(items: DefaultOrders.make(count: 40, anchor: Date()))], log: .discarding)

    /// A list request that repeats the one before it on its connection (as the connection tells).
    func list(_ headers: HTTPHeaders, limit: String = "5") -> Request {
        var request = Request(method: .get, path: "/orders", query: QueryParameters([.init(name: "limit", value: limit)]), headers: headers)
        request.repeatsPrevious = true
        return request
    }

    @Test func aSessionsPage_isAnsweredAgain_asASessionHit_untilAWriteChangesIt() throws {
        let handler = ServiceRoutes.makeHandler(service: service)
        let request = list(["X-Session-ID": "repeats-1"])
        let first = try handler.handle(request)
        let repeatGuard = try #require(first.repeatGuard)
        let fields = repeatGuard.fieldsForRepeats(of: first.headers)
        #expect(first.headers["X-Cache"] == "miss" && fields["X-Cache"] == "hit")
        #expect(fields["Server-Timing"] == #"cache;desc="hit""# && fields["ETag"] == first.headers["ETag"])
        let (requests, hits) = (service.metrics.value(.requests), service.metrics.value(.sessionHits))

        #expect(repeatGuard.verdict(onRepeatOf: request).standsAsFirst)
        #expect(service.metrics.value(.requests) == requests + 1 && service.metrics.value(.sessionHits) == hits + 1)

        let id = try #require((first.bodyJSON["items"] as? [[String: Any]])?.first?["id"] as? String)
        #expect(handler.send(.patch, "/orders/\(id)", json: #"{"customerName":"Zed Repeat"}"#).status == .ok)
        let checked = try #require(repeatGuard.verdict(onRepeatOf: request).handledRequest, "the page changed: handled again")
        #expect(checked.sender is Caller, "as checked by the front door, which does not check it twice")
        let again = try handler.handle(checked)
        #expect(String(decoding: again.bodyBytes ?? [], as: UTF8.self).contains("Zed Repeat"))
        #expect(again.repeatGuard?.verdict(onRepeatOf: request).standsAsFirst == true, "the new page stands for repeats")
    }

    @Test func otherCriteriaInTheSession_endTheFirstPagesRepeats_andA304StandsAsA304() throws {
        let handler = ServiceRoutes.makeHandler(service: service)
        let first = try handler.handle(list(["X-Session-ID": "repeats-2"]))
        let repeatGuard = try #require(first.repeatGuard)
        _ = try handler.handle(list(["X-Session-ID": "repeats-2"], limit: "6"))
        #expect(repeatGuard.verdict(onRepeatOf: list(["X-Session-ID": "repeats-2"])).handledRequest != nil)

        let etag = try #require(first.headers["ETag"])
        let conditional = list(["X-Session-ID": "repeats-2", "If-None-Match": etag])
        let notModified = try handler.handle(conditional)
        #expect(notModified.status == .notModified)
        let unchanged = service.metrics.value(.notModified)
        #expect(try #require(notModified.repeatGuard).verdict(onRepeatOf: conditional).standsAsFirst)
        #expect(service.metrics.value(.notModified) == unchanged + 1)
    }

    @Test func aClientWithoutASession_orARequestNotRepeated_getsNoLeave() throws {
        let handler = ServiceRoutes.makeHandler(service: service)
        let answer = try handler.handle(list([:]))
        #expect(answer.headers["Set-Cookie"] != nil && answer.repeatGuard == nil)
        var once = list(["X-Session-ID": "repeats-4"])
        once.repeatsPrevious = false
        #expect(try handler.handle(once).repeatGuard == nil, "a request asked once: no leave made for it")
        #expect(try handler.handle(list(["X-Session-ID": "repeats-4"])).repeatGuard != nil)
        #expect(try handler.handle(Request(method: .get, path: "/orders/o-000001")).repeatGuard == nil, "a row: none")
    }

    @Test func eachRepeat_passesTheFrontDoor_itsRate_andItsTokenAgain() throws {
        let signer = try #require(TokenSigner(keyID: "repeats"))
        let tokens = TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [signer.verificationKey])))
        let handler = ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(
                hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: true),
                credentials: Credentials(tokens: tokens, requiresIdentity: true),
                rates: RateLimiter(reads: RatePolicy(perSecond: 0.01, burst: 3), writes: nil)))
        let token = signer.token(for: Identity(subject: "s-1", role: .staff), now: Date(), lifetime: 600)
        let request = list(["X-Session-ID": "repeats-3", "Authorization": "Bearer \(token)"])
        let first = try handler.handle(request)
        let repeatGuard = try #require(first.repeatGuard)
        #expect(repeatGuard.verdict(onRepeatOf: request).standsAsFirst)

        tokens.replaceKeys(KeySet(keys: []))  // the key that signed the token is rotated out
        let refusal = try #require(repeatGuard.verdict(onRepeatOf: request).answer)
        #expect(refusal.status == .unauthorized && refusal.headers["WWW-Authenticate"]?.contains("invalid_token") == true)

        tokens.replaceKeys(KeySet(keys: [signer.verificationKey]))
        #expect(repeatGuard.verdict(onRepeatOf: request).standsAsFirst, "the third read of a burst of three")
        let limited = try #require(repeatGuard.verdict(onRepeatOf: request).answer)
        #expect(limited.status == .tooManyRequests && limited.headers["Retry-After"] != nil)
    }
}

extension RepeatVerdict {
    var standsAsFirst: Bool {
        if case .sameAnswer = self { return true }
        return false
    }

    var answer: Response? {
        if case .answer(let response) = self { return response }
        return nil
    }

    var handledRequest: Request? {
        if case .handle(let request) = self { return request }
        return nil
    }
}
