import Foundation
import HTTPLite
import ListServiceAuth
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// Requests per caller: token buckets for reads and for writes, 429 with the headers that say
/// when to come back, other callers unaffected, memory bounded whatever the number of callers.
@Suite struct RateLimitTests {
    static let second: UInt64 = 1_000_000_000
    let alice = Caller.identified(Identity(subject: "c-0001", role: .customer))
    let bob = Caller.identified(Identity(subject: "c-0002", role: .customer))

    func get(_ path: String = "/orders", from address: String? = nil) -> Request {
        var request = Request(method: .get, path: path)
        request.remoteAddress = address
        return request
    }

    @Test func aBucket_holdsItsBurst_refillsAtItsRate_perCallerAndKind() throws {
        let limiter = RateLimiter(reads: RatePolicy(perSecond: 2, burst: 3), writes: RatePolicy(perSecond: 1, burst: 1))
        let start: UInt64 = 1_000 * Self.second
        for _ in 0..<3 { #expect(limiter.refusal(of: get(), by: alice, now: start) == nil) }
        let refused = try #require(limiter.refusal(of: get(), by: alice, now: start))
        #expect(refused.status == .tooManyRequests && refused.code == "rate-limited")
        let headers = refused.response.headers
        #expect(
            headers["Retry-After"] == "1" && headers["RateLimit-Policy"] == #""reads";q=3;w=2"#
                && headers["RateLimit"] == #""reads";r=0;t=1"#)
        #expect(limiter.refusal(of: get(), by: bob, now: start) == nil, "another caller has their own bucket")
        #expect(limiter.refusal(of: get("/health/ready"), by: alice, now: start) == nil, "health is never limited")
        #expect(limiter.refusal(of: get(), by: alice, now: start + Self.second / 2) == nil, "half a second: one more at 2/s")
        #expect(limiter.refusal(of: get(), by: alice, now: start + Self.second / 2) != nil)

        let write = Request(method: .post, path: "/orders")
        #expect(limiter.refusal(of: write, by: alice, now: start) == nil, "writes are counted apart from reads")
        let second = try #require(limiter.refusal(of: write, by: alice, now: start))
        #expect(second.response.headers["RateLimit-Policy"] == #""writes";q=1;w=1"#)
        #expect(limiter.refusedReads.load(ordering: .relaxed) == 2 && limiter.refusedWrites.load(ordering: .relaxed) == 1)

        // Without an identity, the client's address is the caller.
        let anonymous = RateLimiter(reads: RatePolicy(perSecond: 1, burst: 1), writes: nil)
        #expect(anonymous.refusal(of: get(from: "10.0.0.1"), by: .anonymous, now: start) == nil)
        #expect(anonymous.refusal(of: get(from: "10.0.0.1"), by: .anonymous, now: start) != nil)
        #expect(anonymous.refusal(of: get(from: "10.0.0.2"), by: .anonymous, now: start) == nil)
        #expect(anonymous.refusal(of: write, by: .anonymous, now: start) == nil, "no write limit: writes pass")
    }

    @Test func memoryStaysBounded_idleBucketsAreDropped() {
        let limiter = RateLimiter(reads: RatePolicy(perSecond: 10, burst: 10), writes: nil, capacity: 1_600)
        let start: UInt64 = 1_000 * Self.second
        for index in 0..<20_000 {
            _ = limiter.refusal(of: get(from: "10.\(index >> 16).\(index >> 8 & 255).\(index & 255)"), by: .anonymous, now: start)
        }
        #expect(limiter.bucketCount <= 1_600 + 16, "\(limiter.bucketCount)")
        // A second later every bucket has filled up again: the next callers' arrival drops them.
        for index in 0..<2_000 {
            _ = limiter.refusal(of: get(from: "11.\(index >> 8).\(index & 255).1"), by: .anonymous, now: start + 2 * Self.second)
        }
        #expect(limiter.bucketCount <= 1_600 + 16)
    }

    @Test func overHTTP_aBurstIs429_withTheHeaders_othersUnaffected() throws {
        let service = CollectionService(
            stores: [CollectionState<Orders>(items: DefaultOrders.make(count: 20, anchor: Date()))], log: .discarding)
        let signer = try #require(TokenSigner(keyID: "rates"))
        let limiter = RateLimiter(reads: RatePolicy(perSecond: 0.5, burst: 3), writes: RatePolicy(perSecond: 0.5, burst: 1))
        let handler = ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(
                hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: true),
                credentials: Credentials(
                    tokens: TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [signer.verificationKey]))), requiresIdentity: false),
                rates: limiter))
        func bearer(_ subject: String) -> HTTPHeaders {
            ["Authorization": "Bearer " + signer.token(for: Identity(subject: subject, role: .customer), now: Date(), lifetime: 600)]
        }
        for _ in 0..<3 { #expect(handler.send(.get, "/orders", headers: bearer("c-0001")).status == .ok) }
        let refused = handler.send(.get, "/orders", headers: bearer("c-0001"))
        #expect(refused.status == .tooManyRequests && refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.headers["Retry-After"] == "2" && refused.headers["RateLimit-Policy"] == #""reads";q=3;w=6"#)
        #expect(refused.bodyJSON["code"] as? String == "rate-limited")
        #expect(handler.send(.get, "/orders/live", headers: bearer("c-0001")).status == .tooManyRequests, "opening a live stream counts")
        #expect(handler.send(.get, "/orders", headers: bearer("c-0002")).status == .ok, "another caller is unaffected")
        #expect(handler.send(.get, "/health", headers: bearer("c-0001")).status == .ok)
        #expect(handler.send(.post, "/orders", headers: bearer("c-0001"), json: Order.validCreateBody).status == .created)
        #expect(handler.send(.post, "/orders", headers: bearer("c-0001"), json: Order.validCreateBody).status == .tooManyRequests)
        guard case .bytes(let metricsBody) = handler.send(.get, "/metrics").body else {
            Issue.record("no /metrics")
            return
        }
        let metrics = String(decoding: metricsBody, as: UTF8.self)
        #expect(
            metrics.contains(#"listservice_rate_limited_total{kind="reads"} 2"#)
                && metrics.contains(#"listservice_rate_limited_total{kind="writes"} 1"#))
    }
}
