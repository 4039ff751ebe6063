import Foundation
import Testing

@testable import ListService

/// The view-model and engine without HTTP: criteria in, rows out, caches honest.
@Suite struct OrdersViewModelTests {
    let orders: [Order] = [
        .make(
            id: "o-3", title: "Order #3", customerName: "Jöhn Smith", total: .dollars("50"), date: ISO8601.parse("2026-11-10T10:00:00Z")!,
            status: .pending),
        .make(
            id: "o-1", title: "Order #1", customerName: "José García", total: .dollars("1500"),
            date: ISO8601.parse("2026-10-01T10:00:00Z")!, status: .completed),
        .make(
            id: "o-2", title: "Order #2", customerName: "Johnny Walker", total: .dollars("50"),
            date: ISO8601.parse("2026-11-10T10:00:00Z")!, status: .pending),
        .make(
            id: "o-4", title: "Order #4", customerName: "Amélie Dubois", total: .dollars("2000"),
            date: ISO8601.parse("2026-11-01T00:30:00Z")!, status: .cancelled),
        .make(
            id: "o-5", title: "Order #5 for john", customerName: "Zoë Kim", total: .dollars("99.99"),
            date: ISO8601.parse("2026-11-19T10:00:00Z")!, status: .completed),
    ]

    private func list(_ query: String, session: Session? = nil, service: CollectionService, acceptLanguage: String? = nil) throws -> (
        [String: Any], CacheOutcome
    ) {
        try ListServiceTests.list(Orders.self, query, session: session, service: service, acceptLanguage: acceptLanguage)
    }

    @Test func defaultCriteria_listAllByDateDescendingTiesByID() throws {
        let (page, _) = try list("", service: makeService(orders: orders))
        #expect(ids(page) == ["o-5", "o-2", "o-3", "o-4", "o-1"])
        #expect(page["total"] as? Int == 5)
        #expect(page["nextCursor"] is NSNull)
        let criteria = page["criteria"] as? [String: Any] ?? [:]
        #expect(criteria["filter"] as? String == "all")
        #expect(criteria["sort"] as? String == "date")
        #expect(criteria["order"] as? String == "desc")
        #expect(criteria["limit"] as? Int == 50)
        #expect(criteria["locale"] as? String == "en-US")
        #expect(criteria["tz"] as? String == "UTC")
    }

    /// A row's body is kept long after it is written (a keyed write's answer, for a day; a
    /// shared detail): it holds about its own bytes, not the page-sized buffer it was written
    /// into (4 KB for a ~600-byte row: 100,000 keyed writes held ~450 MiB).
    @Test func aRowsBody_holdsItsOwnBytes_notAPagesReserve() {
        let engine = makeService(orders: orders).engine(Orders.self)
        let display = DisplayContext(localeTag: "en-US", timeZoneIdentifier: "UTC")
        let body = engine.formattedRow(orders[0], display: display, access: .everything).body
        #expect(body.count > 100 && body.capacity < body.count + 1024 && body.capacity <= 2 * body.count)
    }

    @Test func search_ignoresCaseAndDiacritics_overNameAndTitle() throws {
        let service = makeService(orders: orders)
        #expect(Set(ids(try list("q=john", service: service).0)) == ["o-3", "o-2", "o-5"])
        #expect(ids(try list("q=JOSE", service: service).0) == ["o-1"])
        #expect(ids(try list("q=amelie%20dub", service: service).0).isEmpty, "the reader, not the view-model, decodes URLs")
        #expect(ids(try list("q=amelie dub", service: service).0) == ["o-4"])
        #expect(ids(try list("q=smithorder", service: service).0).isEmpty, "no match across name and title")
    }

    @Test func filters_andTheirDefaultSorts() throws {
        let service = makeService(orders: orders)
        #expect(ids(try list("filter=pending", service: service).0) == ["o-2", "o-3"])
        #expect(ids(try list("filter=highValue", service: service).0) == ["o-4", "o-1"])
        #expect(ids(try list("filter=cancelled", service: service).0) == ["o-4"])
        #expect(ids(try list("filter=currentMonth", service: service).0) == ["o-5", "o-2", "o-3"])
        let (tokyo, _) = try list("filter=currentMonth&tz=America/Los_Angeles", service: service)
        #expect(!ids(tokyo).contains("o-4"), "cancelled")
    }

    @Test func currentMonth_followsTheClientsTimeZone() throws {
        let early = Order.make(id: "o-9", date: ISO8601.parse("2026-11-01T03:00:00Z")!, status: .pending)
        let service = makeService(orders: [early])
        #expect(ids(try list("filter=currentMonth&tz=UTC", service: service).0) == ["o-9"])
        // 03:00 UTC on Nov 1 is still October 31 in Los Angeles.
        #expect(ids(try list("filter=currentMonth&tz=America/Los_Angeles", service: service).0).isEmpty)
    }

    @Test func sorts_breakTiesByIDInBothDirections() throws {
        let service = makeService(orders: orders)
        #expect(ids(try list("sort=total&order=asc", service: service).0) == ["o-2", "o-3", "o-5", "o-1", "o-4"])
        #expect(ids(try list("sort=total&order=desc", service: service).0) == ["o-4", "o-1", "o-5", "o-2", "o-3"])
        #expect(ids(try list("sort=customer&order=asc", service: service).0) == ["o-4", "o-3", "o-2", "o-1", "o-5"])
    }

    @Test func rows_areDisplayReady() throws {
        let (page, _) = try list("q=jose", service: makeService(orders: orders))
        let row = try #require((page["items"] as? [[String: Any]])?.first)
        #expect(row["formattedTotal"] as? String == "$1,500.00")
        #expect(row["formattedDate"] as? String == "Oct 1, 2026")
        #expect(row["shippingLabel"] as? String == "Free shipping")
        #expect(row["statusLabel"] as? String == "Completed")
        #expect(row["isHighValue"] as? Bool == true)
        #expect(row["canComplete"] as? Bool == false && row["canCancel"] as? Bool == false, "a completed order moves no more")
        let (cheap, _) = try list("q=zoe", service: makeService(orders: orders))
        #expect((cheap["items"] as? [[String: Any]])?.first?["shippingLabel"] as? String == "Shipping: $10.00")
        let (pending, _) = try list("q=smith", service: makeService(orders: orders))
        let pendingRow = (pending["items"] as? [[String: Any]])?.first
        #expect(pendingRow?["statusLabel"] as? String == "Pending")
        #expect(pendingRow?["canComplete"] as? Bool == true && pendingRow?["canCancel"] as? Bool == true)
        #expect(pendingRow?["canDelete"] as? Bool == true, "a reader who sees every order may delete one")
        let (german, _) = try list("q=zoe", service: makeService(orders: orders), acceptLanguage: "de-DE")
        let germanRow = (german["items"] as? [[String: Any]])?.first
        #expect(germanRow?["formattedTotal"] as? String == "99,99\u{00A0}$")
        #expect(germanRow?["shippingLabel"] as? String == "Versand: 10,00\u{00A0}$")
    }

    @Test func repeatedRequest_isASessionHitThatDoesNoWork() throws {
        let service = makeService(orders: orders)
        let session = service.sessions.session(id: "s1", adoptsUnknownID: true, now: service.now).session
        let (_, first) = try list("filter=pending&q=john", session: session, service: service)
        #expect(first == .miss)
        let before = (service.metrics.value(.recomputations), service.metrics.value(.rowsFormatted), service.metrics.value(.pagesBuilt))
        let (_, second) = try list("filter=pending&q=john", session: session, service: service)
        #expect(second == .sessionHit)
        #expect(
            (service.metrics.value(.recomputations), service.metrics.value(.rowsFormatted), service.metrics.value(.pagesBuilt)) == before)
    }

    @Test func equalCriteriaInAnotherSession_shareTheComputedPage() throws {
        let service = makeService(orders: orders)
        _ = try list("filter=pending", service: service)
        let recomputations = service.metrics.value(.recomputations)
        let (_, outcome) = try list("filter=pending", service: service)
        #expect(outcome == .sharedHit)
        #expect(service.metrics.value(.recomputations) == recomputations)
        // Another page of the same list reuses the sorted result: formatting only.
        _ = try list("filter=pending&limit=1", service: service)
        #expect(service.metrics.value(.recomputations) == recomputations)
    }

    @Test func dataChange_recomputes() throws {
        let service = makeService(orders: orders)
        let session = service.sessions.session(id: "s1", adoptsUnknownID: true, now: service.now).session
        _ = try list("filter=pending", session: session, service: service)
        service.engine(Orders.self).replaceAll(orders + [.make(id: "o-6", date: ISO8601.parse("2026-11-20T00:00:00Z")!, status: .pending)])
        let (page, outcome) = try list("filter=pending", session: session, service: service)
        #expect(outcome == .miss)
        #expect(ids(page) == ["o-6", "o-2", "o-3"])
    }

    @Test func cursorPagination_hasNoGapsOrDuplicates_evenWhileRowsChange() throws {
        let many = (1...57).map { index in
            Order.make(id: String(format: "o-%03d", index), total: Money(cents: Int64(index % 7) * 100 + 100))
        }
        let service = makeService(orders: many)
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let (page, _) = try list("sort=total&order=desc&limit=10" + (cursor.map { "&cursor=\($0)" } ?? ""), service: service)
            seen += ids(page)
            cursor = page["nextCursor"] as? String
            pages += 1
            if pages == 2 {
                // A row that sorts before the cursor and one removed ahead of it: neither repeats nor skips the rest.
                service.engine(Orders.self).replaceAll(Array(many.dropLast()) + [.make(id: "o-000", total: Money(cents: 100_000))])
            }
        } while cursor != nil && pages < 20
        let expected = (try list("sort=total&order=desc&limit=500", service: service).0)
        let remaining = ids(expected).filter { $0 != "o-000" }
        #expect(seen.count == Set(seen).count, "no duplicates")
        #expect(Set(remaining).subtracting(seen).isEmpty, "no gaps among rows present throughout")
        #expect(pages == 6)
    }

    @Test func offsetPagination_slicesTheList() throws {
        let service = makeService(orders: orders)
        #expect(ids(try list("sort=total&order=asc&offset=1&limit=2", service: service).0) == ["o-3", "o-5"])
        #expect(ids(try list("offset=99", service: service).0).isEmpty)
    }

    @Test(arguments: [
        ("filter=open", "filter"), ("sort=price", "sort"), ("order=up", "order"), ("limit=0", "limit"),
        ("limit=501", "limit"), ("limit=ten", "limit"), ("cursor=garbage", "cursor"), ("tz=Mars/Base", "tz"),
        ("tz=Europe/Atlantis", "tz"), ("offset=-1", "offset"), ("fitler=pending", "fitler"), ("filter=all&filter=pending", "filter"),
        ("cursor=abc&offset=1", "cursor"),
    ])
    func invalidParameters_nameTheParameter(query: String, parameter: String) {
        do {
            _ = try list(query, service: makeService(orders: orders))
            Issue.record("expected an error for \(query)")
        } catch let error as ListServiceError {
            #expect(error.kind == .invalidParameter)
            #expect(error.parameter == parameter)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func cursorOfAnotherList_isRejected() throws {
        let service = makeService(orders: orders)
        let (page, _) = try list("limit=2", service: service)
        let cursor = try #require(page["nextCursor"] as? String)
        #expect(throws: ListServiceError.self) { try list("filter=pending&limit=2&cursor=\(cursor)", service: service) }
        #expect(ids(try list("limit=2&cursor=\(cursor)", service: service).0) == ["o-3", "o-4"])
    }
}
