import Foundation
import Testing

@testable import ListService

/// What sessions and caches hold is bounded in bytes, whatever a client asks for.
@Suite struct MemoryBoundTests {
    @Test func lruCache_evictsByCost_keepingTheNewest() {
        var cache = LRUCache<String, Int>(capacity: 100, maxCost: 10)
        #expect(cache.insert("a", 1, cost: 4).isEmpty)
        #expect(cache.insert("b", 2, cost: 4).isEmpty)
        _ = cache["a"]
        #expect(cache.insert("c", 3, cost: 4).map(\.key) == ["b"], "the least recently used goes first")
        #expect(cache.totalCost == 8)
        #expect(cache.insert("huge", 4, cost: 50).map(\.key).sorted() == ["a", "c"])
        #expect(cache.count == 1 && cache.totalCost == 50, "the newest entry stays even alone over the bound")
        cache.remove("huge")
        #expect(cache.totalCost == 0)
    }

    @Test func sessionsOnDistinctPages_holdNoMoreThanTheBound() throws {
        let orders = DefaultOrders.make(count: 2_000, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
        let bound = 2 * 1024 * 1024
        let sessions = SessionStore(capacity: 10_000, maxPageBytes: bound)
        let service = CollectionService(
            stores: [CollectionState<Orders>(items: orders)], sessions: sessions, sharedCacheBytes: 3 * 1024 * 1024,
            log: .discarding, clock: { ISO8601.parse("2026-11-20T12:00:00Z")! })
        var first: Session?
        for index in 0..<300 {  // each a different 100-row page of about 25 KB: 7 MB if all were kept
            let session = service.sessions.session(id: "s\(index)", adoptsUnknownID: true, now: service.now).session
            first = first ?? session
            _ = try list(Orders.self, "limit=100&offset=\(index)", session: session, service: service)
            #expect(sessions.pageMemory.heldBytes <= bound + 64 * 1024)
        }
        #expect(sessions.pageMemory.heldBytes > bound / 2, "the bound is used, not just emptied")
        // The oldest session dropped its page, not itself: it asks again and gets its page.
        let session = try #require(first)
        let (page, outcome) = try list(Orders.self, "limit=100&offset=0", session: session, service: service)
        #expect(outcome != .sessionHit)
        #expect((page["items"] as? [[String: Any]])?.count == 100)
        #expect(service.sessions.session(id: "s0", adoptsUnknownID: true, now: service.now).session === session)
    }

    /// Collections share the caches in proportion to their items, every one keeps some, and
    /// the parts never add up to more than the whole.
    @Test func cacheShares_followItemCounts() {
        let bytes = 128 << 20
        for counts in [[1_000_000, 1_000, 1_000, 300], [100_000, 20_000, 50_000, 300], [0, 0, 0, 0], [5, 5]] {
            let shares = counts.map { EngineContext.share(of: bytes, forItems: $0, among: counts) }
            #expect(shares.reduce(0, +) <= bytes && shares.reduce(0, +) >= bytes - counts.count)
            #expect(shares.allSatisfy { $0 > 0 })
            for (a, b) in zip(counts.indices, counts.indices.dropFirst()) where counts[a] > counts[b] { #expect(shares[a] > shares[b]) }
        }
        let million = EngineContext.share(of: bytes, forItems: 1_000_000, among: [1_000_000, 1_000, 1_000, 300])
        #expect(million > bytes * 95 / 100, "a million orders take nearly all")
        #expect(EngineContext.share(of: bytes, forItems: 5, among: [5, 5]) == bytes / 2)
    }

    @Test func sharedCaches_holdNoMoreThanTheirShare() throws {
        let orders = DefaultOrders.make(count: 2_000, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
        let engine = CollectionEngine(
            state: CollectionState<Orders>(items: orders), metrics: ServiceMetrics(), formatters: FormatterCache(),
            pageCapacity: 100_000, cacheBytes: 1024 * 1024)
        for index in 0..<200 {
            let criteria = try ListCriteria<Orders>(
                ListRequest(parameters: [("limit", "100"), ("offset", "\(index)")], acceptLanguage: nil), now: engine.now, purpose: .list)
            _ = try engine.page(for: criteria)
        }
        #expect(engine.sharedBytes <= 1024 * 1024 + 64 * 1024)
    }
}
