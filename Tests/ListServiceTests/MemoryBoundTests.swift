import Foundation
import Testing

@testable import ListService

/// What sessions and caches hold is bounded in bytes, whatever a client asks for.
@Suite struct MemoryBoundTests {
    /// A million orders are held as values side by side: every byte of an order is a megabyte.
    @Test func anOrder_andWhatTheFiltersRead_stayCompact() {
        #expect(MemoryLayout<Order>.stride <= 144, "one-byte fields fill the address's padding")
        #expect(MemoryLayout<Currency>.size == 1)
        #expect(MemoryLayout<OrderItem>.stride <= 32)
        #expect(MemoryLayout<Orders.FilterFields?>.stride <= 16)
    }

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

    @Test func lruCache_touch_changesInPlaceAndMarksRecent_onlyWhatStillCounts() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache.insert("a", 1, cost: 0)
        cache.insert("b", 2, cost: 0)
        #expect(cache.touch("a", if: { $0 < 10 }, { $0 += 10 }) == 11)
        #expect(cache.touch("b", if: { $0 > 5 }, { $0 = 0 }) == nil, "an entry that no longer counts is left as it is")
        #expect(cache.touch("zz", if: { _ in true }, { _ in }) == nil)
        #expect(cache.insert("c", 3, cost: 0).map(\.key) == ["b"], "the touched entry became the newest")
        #expect(cache["a"] == 11)
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

    /// A compression a test can predict: the "compressed" body is the first third of the page.
    static let thirds = PageCompression(minimumBytes: 256) { body, etag in
        EncodedBody(bytes: Array(body.prefix(body.count / 3)), etag: etag)
    }

    /// Compressed bodies count in the cost of the pages that carry them, in the session's
    /// memory and in the shared caches, including one compressed after the page was kept.
    @Test func compressedBodies_countInThePagesCost() throws {
        let orders = DefaultOrders.make(count: 500, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
        let service = CollectionService(
            stores: [CollectionState<Orders>(items: orders)], sessions: SessionStore(), log: .discarding,
            clock: { ISO8601.parse("2026-11-20T12:00:00Z")! })
        let engine = service.engine(Orders.self)
        let session = service.sessions.session(id: "s", adoptsUnknownID: true, now: service.now).session
        let model = session.viewModel(for: Orders.self)
        let plainRequest = ListRequest(parameters: [("limit", "100")])
        var compressedRequest = plainRequest
        compressedRequest.compression = Self.thirds

        let (plain, _) = try model.page(for: plainRequest, session: session, engine: engine)
        let sharedAfterPlain = engine.sharedBytes
        #expect(plain.cost == plain.body.count)
        #expect(service.sessions.pageMemory.heldBytes == plain.body.count)

        // The same list asked for compressed: the coding is made once, on the page both caches hold, and both count it.
        let (hit, outcome) = try model.page(for: compressedRequest, session: session, engine: engine)
        #expect(outcome == .sharedHit && hit === plain)
        let compressedBytes = plain.body.count / 3
        #expect(hit.cost == plain.body.count + compressedBytes)
        #expect(service.sessions.pageMemory.heldBytes == plain.body.count + compressedBytes, "the session counts the new coding")
        #expect(engine.sharedBytes == sharedAfterPlain + compressedBytes, "and so does the shared cache")
        #expect(try model.page(for: compressedRequest, session: session, engine: engine).1 == .sessionHit)

        // Another session borrows the shared page, compressed already: nothing is counted twice in the shared cache.
        let other = service.sessions.session(id: "t", adoptsUnknownID: true, now: service.now).session
        let (borrowed, borrowedOutcome) = try other.viewModel(for: Orders.self).page(for: compressedRequest, session: other, engine: engine)
        #expect(borrowedOutcome == .sharedHit && borrowed === plain)
        #expect(engine.sharedBytes == sharedAfterPlain + compressedBytes)
        #expect(service.sessions.pageMemory.heldBytes == plain.body.count + compressedBytes, "a page two sessions hold counts once")

        // A new page asked for compressed is counted with its compressed body from the start.
        let (fresh, _) = try model.page(
            for: ListRequest(parameters: [("limit", "50")], compression: Self.thirds), session: session, engine: engine)
        #expect(fresh.cost == fresh.body.count + fresh.body.count / 3)
        let (row, _) = try engine.row(
            id: orders[0].id, display: DisplayContext(localeTag: "en-US", timeZoneIdentifier: "UTC"), access: .everything,
            compression: Self.thirds)
        #expect(row.body.count < 256 || row.cost == row.body.count + row.body.count / 3)
    }

    /// A grouped list's pages share one buffer of sections: the sessions holding them count it
    /// once, so the bound keeps as many of them as their bytes allow, and the buffer stops
    /// counting with its last holder.
    @Test func sectionsSharedByPages_countOnce_andGoWithTheirLastHolder() throws {
        let orders = DefaultOrders.make(count: 2_000, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
        let start = ISO8601.parse("2026-11-20T12:00:00Z")!
        let probe = CollectionService(
            stores: [CollectionState<Orders>(items: orders)], sessions: SessionStore(), log: .discarding, clock: { start })
        let grouped = { (offset: Int) in ListRequest(parameters: [("sort", "date"), ("group", "day"), ("offset", "\(offset)")]) }
        let sample = try ListViewModel<Orders>.page(for: grouped(0), purpose: .list, engine: probe.engine(Orders.self)).0
        let tailBytes = try #require(sample.tail).bytes.count
        #expect(tailBytes > 4 * sample.lead.count, "the sections outweigh a page's rows")

        // Room for the sections once and twenty pages' rows, not for twenty pages each with its own sections.
        let store = SessionStore(capacity: 100, timeToLive: .seconds(60), maxPageBytes: tailBytes + 20 * 2 * sample.lead.count)
        let service = CollectionService(
            stores: [CollectionState<Orders>(items: orders)], sessions: store, log: .discarding, clock: { start })
        let engine = service.engine(Orders.self)
        var sessions: [Session] = [], leads = 0, tails: Set<ObjectIdentifier> = []
        for index in 0..<20 {
            let session = store.session(id: "s\(index)", adoptsUnknownID: true, now: start).session
            let (page, _) = try session.viewModel(for: Orders.self).page(for: grouped(index * 50), session: session, engine: engine)
            leads += page.lead.count
            tails.insert(ObjectIdentifier(try #require(page.tail)))
            sessions.append(session)
        }
        #expect(tails.count == 1, "the list's pages share its sections")
        #expect(store.pageMemory.heldBytes == leads + tailBytes)
        for (index, session) in sessions.enumerated() {
            let outcome = try session.viewModel(for: Orders.self).page(for: grouped(index * 50), session: session, engine: engine).1
            #expect(outcome == .sessionHit, "session \(index) kept its page")
        }

        // A page borrowed from the shared cache by another session adds nothing.
        let borrower = store.session(id: "b", adoptsUnknownID: true, now: start).session
        let (borrowed, outcome) = try borrower.viewModel(for: Orders.self).page(for: grouped(0), session: borrower, engine: engine)
        #expect(outcome == .sharedHit && borrowed.tail != nil)
        #expect(store.pageMemory.heldBytes == leads + tailBytes)

        #expect(store.endExpired(now: start.addingTimeInterval(61)) == 21)
        #expect(store.pageMemory.heldBytes == 0, "the sections stop counting with their last holder")
    }

    /// Ended sessions (expired, or evicted for room) let their pages go at once.
    @Test func endedSessions_releaseTheirPages() throws {
        let orders = DefaultOrders.make(count: 500, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
        let start = ISO8601.parse("2026-11-20T12:00:00Z")!
        let store = SessionStore(capacity: 3, timeToLive: .seconds(60))
        let service = CollectionService(
            stores: [CollectionState<Orders>(items: orders)], sessions: store, log: .discarding, clock: { start })
        for index in 0..<3 {
            let session = store.session(id: "s\(index)", adoptsUnknownID: true, now: start).session
            _ = try list(Orders.self, "limit=100&offset=\(index)", session: session, service: service)
        }
        let three = store.pageMemory.heldBytes
        #expect(three > 0)
        let fourth = store.session(id: "s3", adoptsUnknownID: true, now: start).session
        #expect(store.pageMemory.heldBytes < three, "the evicted session's page is let go")
        _ = try list(Orders.self, "limit=100&offset=3", session: fourth, service: service)
        #expect(store.endExpired(now: start.addingTimeInterval(59)) == 0)
        #expect(store.endExpired(now: start.addingTimeInterval(61)) == 3)
        #expect(store.count == 0 && store.pageMemory.heldBytes == 0)
    }
}
