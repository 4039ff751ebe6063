import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// The HTTP contract, in process: the router called with made-up requests.
@Suite struct OrdersAPITests {
    let service = makeService(orders: DefaultOrders.make(count: 300, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!))
    var router: ServiceHandler { ServiceRoutes.makeHandler(service: service) }

    private func get(_ path: String, query: [(String, String)] = [], headers: HTTPHeaders = [:]) -> Response {
        let request = Request(
            method: .get, path: path, query: QueryParameters(query.map { .init(name: $0.0, value: $0.1) }), headers: headers)
        do {
            return try router.handle(request)
        } catch let error as HTTPError {
            return error.response
        } catch {
            return Response(status: .internalServerError)
        }
    }

    private func body(_ response: Response) -> [String: Any] {
        guard let bytes = response.body.joinedBytes else { return [:] }
        return json(bytes)
    }

    @Test func firstRequest_setsACookie_theSessionBeginsWhenItComesBack() {
        let first = get("/orders", query: [("filter", "pending")])
        #expect(first.status == .ok)
        #expect(first.headers["X-Cache"] == "miss")
        let cookie = first.headers["Set-Cookie"] ?? ""
        #expect(cookie.hasPrefix("sid="))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
        let sid = String(cookie.dropFirst(4).prefix(while: { $0 != ";" }))
        #expect(sid.count == 32, "128 random bits in hex")
        #expect(service.sessions.count == 0, "a client that never comes back leaves nothing")
        let back = get("/orders", query: [("filter", "pending")], headers: ["Cookie": "theme=dark; sid=\(sid)"])
        #expect(back.headers["X-Cache"] == "hit", "the page the first request computed, from the shared cache")
        #expect(back.headers["Set-Cookie"] == nil)
        #expect(service.sessions.count == 1)
        let again = get("/orders", query: [("filter", "pending")], headers: ["Cookie": "sid=\(sid)"])
        #expect(again.headers["X-Cache"] == "hit")
        #expect(service.metrics.value(.sessionHits) == 1, "now the session's own view-model answers")
    }

    @Test func anonymousRequests_leaveNoSessionBehind_andForeignCookiesAreReplaced() {
        for index in 0..<200 { _ = get("/orders", query: [("limit", "\(1 + index % 50)")]) }
        #expect(service.sessions.count == 0)
        for cookie in ["sid=chosen-by-client", "sid=", "sid=ABCDEF0123456789ABCDEF0123456789"] {
            let response = get("/orders", headers: ["Cookie": cookie])
            #expect(response.headers["Set-Cookie"]?.hasPrefix("sid=") == true, "\(cookie) is not one the service set")
        }
        #expect(service.sessions.count == 0)
        // A selection needs somewhere to live: it makes a session at once, but only when valid.
        let refused = ServiceRoutes.makeHandler(service: service).send(
            .put, "/session/selection", json: #"{"collection":"nope","id":null}"#)
        #expect(refused.status == .unprocessableContent)
        #expect(service.sessions.count == 0)
        let misspelt = ServiceRoutes.makeHandler(service: service).send(
            .put, "/session/selection", json: #"{"collection":"quakes","ID":"x"}"#)
        #expect(misspelt.status == .unprocessableContent)
        let fields = (body(misspelt)["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
        #expect(fields == ["ID", "id"], "a misspelt member is named, beside the member it leaves missing")
        #expect(service.sessions.count == 0)
        let selected = ServiceRoutes.makeHandler(service: service).send(
            .put, "/session/selection", json: #"{"collection":"quakes","id":null}"#)
        #expect(selected.status == .ok)
        #expect(selected.headers["Set-Cookie"]?.hasPrefix("sid=") == true)
        #expect(service.sessions.count == 1)
    }

    @Test func sessionHeader_namesTheSession() {
        _ = get("/orders", query: [("q", "john")], headers: ["X-Session-ID": "bench"])
        let second = get("/orders", query: [("q", "john")], headers: ["X-Session-ID": "bench"])
        #expect(second.headers["X-Cache"] == "hit")
        #expect(second.headers["Set-Cookie"] == nil)
        let bad = get("/orders", headers: ["X-Session-ID": "not valid!"])
        #expect(bad.status == .badRequest)
        #expect(body(bad)["parameter"] as? String == "X-Session-ID")
    }

    @Test func etag_andIfNoneMatch_give304WithoutBody() {
        let first = get("/orders", query: [("limit", "5")], headers: ["X-Session-ID": "e"])
        let etag = first.headers["ETag"] ?? ""
        #expect(etag.hasPrefix("\"") && etag.count == 18)
        let cached = get("/orders", query: [("limit", "5")], headers: ["X-Session-ID": "e", "If-None-Match": etag])
        #expect(cached.status == .notModified)
        #expect(cached.headers["ETag"] == etag)
        let other = get("/orders", query: [("limit", "6")], headers: ["X-Session-ID": "e", "If-None-Match": etag])
        #expect(other.status == .ok)
    }

    @Test func badParameter_isAProblemNamingItAndItsValues() {
        let response = get("/orders", query: [("filter", "open")])
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let problem = body(response)
        #expect(problem["status"] as? Int == 400)
        #expect(problem["code"] as? String == "invalid-parameter")
        #expect(problem["parameter"] as? String == "filter")
        #expect(problem["allowed"] as? [String] == ["all", "pending", "completed", "cancelled", "highValue", "currentMonth"])
        #expect(get("/orders", query: [("page", "2")]).status == .badRequest)
    }

    @Test func orderByID_returnsItsRow_or404() {
        let row = get("/orders/o-000007", headers: ["Accept-Language": "ja-JP"])
        #expect(row.status == .ok)
        #expect(body(row)["id"] as? String == "o-000007")
        #expect(row.headers["ETag"] != nil)
        let missing = get("/orders/o-999999")
        #expect(missing.status == .notFound)
        #expect(body(missing)["code"] as? String == "not-found")
        #expect(get("/orders/o-000007", query: [("filter", "x")]).status == .badRequest)
    }

    @Test func around_opensTheListAtAnOrder_or404sNamingIt() {
        let page = body(get("/orders", query: [("limit", "5"), ("around", "o-000150")]))
        let ids = (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids.count == 5 && ids[2] == "o-000150", "the order is row limit / 2")
        #expect((page["index"] as? Int).map { $0 + 5 + (page["itemsAfter"] as? Int ?? 0) } == page["total"] as? Int)
        let missing = get("/orders", query: [("around", "o-999999")])
        #expect(missing.status == .notFound)
        #expect(body(missing)["code"] as? String == "not-in-list")
        #expect((body(missing)["detail"] as? String)?.contains("o-999999") == true)
        let both = get("/orders", query: [("around", "o-000150"), ("cursor", "x")])
        #expect(both.status == .badRequest && body(both)["parameter"] as? String == "around")
    }

    @Test func metrics_countRequestsHitsAndSessions() {
        _ = get("/orders", headers: ["X-Session-ID": "m"])
        _ = get("/orders", headers: ["X-Session-ID": "m"])
        let response = get("/metrics")
        guard case .bytes(let bytes) = response.body else {
            Issue.record("metrics are not a plain body")
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("listservice_requests_total 2\n"))
        #expect(text.contains("listservice_cache_hits_total{level=\"session\"} 1\n"))
        #expect(text.contains("listservice_cache_misses_total 1\n"))
        #expect(text.contains("listservice_sessions 1\n"))
        #expect(text.contains("# TYPE listservice_rows_formatted_total counter"))
    }

    @Test func openAPIDocument_isServedAsTheRepositoryFile() throws {
        let response = get("/openapi.yaml")
        guard case .bytes(let bytes) = response.body else {
            Issue.record("the document is not a plain body")
            return
        }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        #expect(bytes == Array(try Data(contentsOf: file)))
        #expect(response.headers["Content-Type"] == "application/yaml")
    }
}
