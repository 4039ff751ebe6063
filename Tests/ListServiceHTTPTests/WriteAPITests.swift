import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// Every write endpoint and its errors, in process (the in-memory service; durability has
/// its own tests).
@Suite struct WriteAPITests {
    let service = makeWriteTestService()
    var router: ServiceHandler { ServiceRoutes.makeHandler(service: service) }

    @Test func createOrder_assignsIDAndComputesTotal() throws {
        let response = router.send(.post, "/orders", json: Order.validCreateBody)
        #expect(response.status == .created)
        #expect(response.headers["Location"] == "/orders/o-000051")
        let row = response.bodyJSON
        #expect(row["id"] as? String == "o-000051")
        #expect(row["status"] as? String == "pending")
        #expect(row["formattedTotal"] as? String == "€1,536.50")
        #expect(row["requiresSignature"] as? Bool == true)
        let stored = try #require(service.engine(Orders.self).state.item(id: "o-000051"))
        #expect(stored.total == Money(cents: 153_650))
        #expect(stored.title == "Order #100051")
        #expect(stored.date == service.now)
        #expect(ids(router.send(.get, "/orders", query: [("q", "zoe kim")]).bodyJSON).contains("o-000051"), "lists see it")
    }

    @Test func invalidOrder_listsEveryProblemAndChangesNothing() {
        let body = """
            {"customerName":"   ","currency":"ABC","items":[{"name":"","quantity":0,"unitPrice":-1},
             {"name":"Mug","quantity":1000000,"unitPrice":1.005},{"name":"x","quantity":1.5,"unitPrice":"1"}],
             "shippingAddress":{"street":"1 Main St","country":"NO","isResidential":"yes"},"discount":5}
            """
        let response = router.send(.post, "/orders", json: body)
        #expect(response.status == .unprocessableContent)
        let fields = (response.bodyJSON["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
        #expect(
            Set(fields) == [
                "discount", "customerName", "currency", "items[0].name", "items[0].quantity", "items[0].unitPrice",
                "items[1].quantity", "items[1].unitPrice", "items[2].quantity", "items[2].unitPrice", "shippingAddress.city",
                "shippingAddress.postalCode", "shippingAddress.isResidential",
            ])
        #expect(response.bodyJSON["code"] as? String == "validation-failed")
        let currencyProblem = (response.bodyJSON["errors"] as? [[String: Any]] ?? []).first { $0["field"] as? String == "currency" }
        #expect((currencyProblem?["detail"] as? String)?.hasPrefix("must be one of AUD, BRL, CAD") == true)
        #expect(service.engine(Orders.self).state.count == 50)
        #expect(
            router.send(.post, "/orders", json: #"{"customerName":"A","currency":"USD","items":[],"shippingAddress":{}}"#)
                .bodyJSON["errors"].map { "\($0)" }?.contains("items") == true)
        let many = "[" + Array(repeating: #"{"name":"M","quantity":1,"unitPrice":1}"#, count: 101).joined(separator: ",") + "]"
        let tooMany = router.send(
            .post, "/orders",
            json: Order.validCreateBody.replacingOccurrences(
                of: #"[{"name":"Mug","quantity":3,"unitPrice":12.5,"requiresSignature":false},"#, with: "\(many.dropLast()),"))
        #expect(tooMany.status == .unprocessableContent)
    }

    /// A unit price is refused for what is wrong with it as it reads: a number too large to
    /// hold is too large, not too precise.
    @Test(arguments: [
        ("1000000.01", "must be at most 1000000.00."), ("1e400", "must be at most 1000000.00."),
        ("123456789012345678901234567890", "must be at most 1000000.00."), ("-1e400", "must not be negative."),
        ("-0.5", "must not be negative."), ("1.005", "must have at most two decimals."),
        ("1e-400", "must have at most two decimals."),
    ])
    func aUnitPrice_isRefusedForWhatIsWrongWithIt(price: String, detail: String) {
        let body = Order.validCreateBody.replacingOccurrences(of: #""unitPrice":12.5"#, with: #""unitPrice":\#(price)"#)
        let errors = router.send(.post, "/orders", json: body).bodyJSON["errors"] as? [[String: Any]] ?? []
        #expect(errors.map { $0["field"] as? String } == ["items[0].unitPrice"])
        #expect(errors.first?["detail"] as? String == detail)
    }

    @Test func badBodies_get400And415() {
        #expect(router.send(.post, "/orders", json: "{not json").status == .badRequest)
        #expect(router.send(.post, "/orders", json: "[1,2]").status == .badRequest)
        #expect(
            router.send(.post, "/orders", headers: ["Content-Type": "text/plain"], json: Order.validCreateBody).status
                == .unsupportedMediaType)
        #expect(
            router.send(.patch, "/orders/o-000001", headers: ["Content-Type": "application/x-www-form-urlencoded"], json: "a=b").status
                == .unsupportedMediaType)
    }

    @Test func completeAndCancel_followTheRules() throws {
        let engine = service.engine(Orders.self)
        let pending = try #require(engine.state.allItems.first { $0.status == .pending })
        let completed = router.send(.post, "/orders/\(pending.id)/complete")
        #expect(completed.status == .ok)
        #expect(completed.bodyJSON["status"] as? String == "completed")
        let again = router.send(.post, "/orders/\(pending.id)/complete")
        #expect(again.status == .ok, "already completed: 200, unchanged")
        #expect(again.headers["ETag"] == completed.headers["ETag"])
        let refused = router.send(.post, "/orders/\(pending.id)/cancel")
        #expect(refused.status == .conflict)
        #expect(engine.state.item(id: pending.id)?.status == .completed)
        let other = try #require(engine.state.allItems.first { $0.status == .pending })
        #expect(router.send(.post, "/orders/\(other.id)/cancel").bodyJSON["status"] as? String == "cancelled")
        #expect(router.send(.post, "/orders/\(other.id)/complete").status == .conflict)
        #expect(router.send(.post, "/orders/o-999999/complete").status == .notFound)
        #expect(router.send(.get, "/orders/\(other.id)/complete").status == .methodNotAllowed)
    }

    @Test func patchOrder_mergesNameAndAddress() throws {
        let response = router.send(.patch, "/orders/o-000003", json: #"{"customerName":"Ann Lee","shippingAddress":{"city":"Bergen"}}"#)
        #expect(response.status == .ok)
        let order = try #require(service.engine(Orders.self).state.item(id: "o-000003"))
        #expect(order.customerName == "Ann Lee")
        #expect(order.shippingAddress.city == "Bergen")
        #expect(!order.shippingAddress.street.isEmpty, "untouched parts stay")
        let invalid = router.send(
            .patch, "/orders/o-000003", json: #"{"customerName":null,"status":"completed","shippingAddress":{"city":""}}"#)
        #expect(invalid.status == .unprocessableContent)
        #expect((invalid.bodyJSON["errors"] as? [Any])?.count == 3)
        #expect(service.engine(Orders.self).state.item(id: "o-000003")?.customerName == "Ann Lee", "a rejected request changes nothing")
    }

    @Test func ifMatch_makesWritesConditional() throws {
        let row = router.send(.get, "/orders/o-000004")
        let etag = try #require(row.headers["ETag"])
        let stale = router.send(.patch, "/orders/o-000004", headers: ["If-Match": "\"0000000000000000\""], json: #"{"customerName":"X Y"}"#)
        #expect(stale.status == .preconditionFailed)
        #expect(stale.bodyJSON["code"] as? String == "precondition-failed")
        let fresh = router.send(.patch, "/orders/o-000004", headers: ["If-Match": etag], json: #"{"customerName":"X Y"}"#)
        #expect(fresh.status == .ok)
        #expect(
            router.send(.delete, "/orders/o-000004", headers: ["If-Match": etag]).status == .preconditionFailed, "the old tag is stale now")
        #expect(router.send(.post, "/orders/o-000004/cancel", headers: ["If-Match": "*"]).status != .preconditionFailed)
    }

    @Test func deleteOrder_removesItEverywhere() {
        #expect(router.send(.delete, "/orders/o-000005").status == .noContent)
        #expect(router.send(.get, "/orders/o-000005").status == .notFound)
        #expect(router.send(.delete, "/orders/o-000005").status == .notFound)
        #expect(!ids(router.send(.get, "/orders", query: [("limit", "500")]).bodyJSON).contains("o-000005"))
    }

    @Test func tasks_createPatchDelete() throws {
        let created = router.send(.post, "/tasks", json: #"{"title":"Plan offsite","dueDate":"2026-11-25T10:00:00Z","priority":"urgent"}"#)
        #expect(created.status == .created)
        #expect(created.bodyJSON["id"] as? String == "t-000002")
        #expect(created.bodyJSON["dueLabel"] as? String == "Due in 5 days")
        #expect(ids(router.send(.get, "/tasks").bodyJSON).first == "t-000002", "urgent sorts first")
        let patched = router.send(.patch, "/tasks/t-000002", json: #"{"isArchived":true,"priority":"low"}"#)
        #expect(patched.bodyJSON["priority"] as? String == "low")
        #expect(!ids(router.send(.get, "/tasks").bodyJSON).contains("t-000002"), "archived leaves the active view")
        let invalid = router.send(.patch, "/tasks/t-000002", json: #"{"priority":"meh","dueDate":"soon","title":""}"#)
        #expect((invalid.bodyJSON["errors"] as? [Any])?.count == 3)
        #expect(router.send(.post, "/tasks", json: #"{"priority":"low"}"#).status == .unprocessableContent)
        #expect(router.send(.delete, "/tasks/t-000002").status == .noContent)
        #expect(router.send(.get, "/tasks/t-000002").status == .notFound)
    }

    @Test func aDueDateWithoutATime_isTheEndOfThatDayInTheClientsZone() throws {
        let berlin = router.send(
            .post, "/tasks", query: [("tz", "Europe/Berlin"), ("locale", "de-DE")], json: #"{"title":"Pick","dueDate":"2026-11-25"}"#)
        #expect(berlin.status == .created)
        let id = try #require(berlin.headers["Location"]).split(separator: "/").last.map(String.init) ?? ""
        #expect(service.engine(Tasks.self).state.item(id: id)?.dueDate == ISO8601.parse("2026-11-25T22:59:59Z"), "23:59:59 in Berlin")
        #expect((berlin.bodyJSON["formattedDueDate"] as? String)?.contains("23:59") == true)
        #expect(berlin.bodyJSON["dueLabel"] as? String == "Fällig in 5 Tagen", "today is Nov 20 in Berlin")
        let utc = router.send(.patch, "/tasks/\(id)", json: #"{"dueDate":"2026-11-20"}"#)
        #expect(service.engine(Tasks.self).state.item(id: id)?.dueDate == ISO8601.parse("2026-11-20T23:59:59Z"), "no tz: UTC")
        #expect(utc.bodyJSON["dueLabel"] as? String == "Due today")
        #expect(utc.bodyJSON["isOverdue"] as? Bool == false)
        for bad in ["2026-02-30", "2026-11-5", "25.11.2026"] {
            #expect(router.send(.patch, "/tasks/\(id)", json: #"{"dueDate":"\#(bad)"}"#).status == .unprocessableContent, "\(bad)")
        }
    }

    @Test func validationProblems_areInTheClientsLanguage_andReadNaturally() {
        let one = router.send(.post, "/tasks", json: #"{"title":"Plan"}"#)
        #expect(one.bodyJSON["detail"] as? String == "1 field is invalid.")
        let body = #"{"title":"","dueDate":"soon","priority":"meh","colour":"red"}"#
        let english = router.send(.post, "/tasks", json: body)
        #expect(english.bodyJSON["detail"] as? String == "4 fields are invalid.")
        func details(_ response: Response) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: (response.bodyJSON["errors"] as? [[String: Any]] ?? []).map {
                    ($0["field"] as? String ?? "", $0["detail"] as? String ?? "")
                })
        }
        #expect(details(english)["priority"] == "must be one of low, medium, high, urgent.")
        let german = router.send(.post, "/tasks", query: [("locale", "de-DE")], json: body)
        #expect(german.bodyJSON["detail"] as? String == "4 Felder sind ungültig.")
        #expect(details(german)["title"] == "darf nicht leer sein.")
        #expect(details(german)["colour"] == "ist kein Feld, das hier gesetzt werden kann.")
        let french = router.send(.post, "/tasks", headers: ["Accept-Language": "fr-FR"], json: #"{"title":"Plan"}"#)
        #expect(french.bodyJSON["detail"] as? String == "1 champ est invalide.")
        #expect(details(french)["dueDate"] == "est obligatoire.")
        let spanish = router.send(.patch, "/tasks/t-000001", query: [("locale", "es")], json: #"{"isActive":"yes"}"#)
        #expect(details(spanish)["isActive"] == "debe ser true o false, no una cadena.")
        let japanese = router.send(.post, "/tasks", query: [("locale", "ja-JP")], json: #"{"title":"Plan"}"#)
        #expect(japanese.bodyJSON["detail"] as? String == "1件の項目が無効です。")
        #expect(details(japanese)["dueDate"] == "は必須です。")
        let other = router.send(.post, "/tasks", query: [("locale", "sv-SE")], json: #"{"title":"Plan"}"#)
        #expect(other.bodyJSON["detail"] as? String == "1 field is invalid.", "English where a language is not covered")
    }

    @Test func everyListRow_carriesItsVersion_whichIfMatchTakes() throws {
        let rows = router.send(.get, "/orders", query: [("filter", "pending"), ("limit", "3")]).bodyJSON["items"] as? [[String: Any]] ?? []
        let row = try #require(rows.first)
        let id = try #require(row["id"] as? String)
        let version = try #require(row["version"] as? String)
        #expect(version.count == 16)
        let detail = router.send(.get, "/orders/\(id)", query: [("locale", "de-DE")])
        #expect(detail.headers["ETag"]?.hasPrefix("\"\(version)-") == true, "the same version the detail's ETag names")
        #expect(detail.bodyJSON["version"] as? String == version)
        let renamed = router.send(.patch, "/orders/\(id)", headers: ["If-Match": "\"\(version)\""], json: #"{"customerName":"Ada"}"#)
        #expect(renamed.status == .ok, "a write straight from the list")
        let newVersion = try #require(renamed.bodyJSON["version"] as? String)
        #expect(newVersion != version)
        #expect(
            router.send(.patch, "/orders/\(id)", headers: ["If-Match": "\"\(version)\""], json: #"{"customerName":"Bo"}"#).status
                == .preconditionFailed)
        let again =
            router.send(.get, "/orders", query: [("filter", "pending"), ("limit", "3")]).bodyJSON["items"] as? [[String: Any]] ?? []
        #expect(again.first { $0["id"] as? String == id }?["version"] as? String == newVersion, "the list shows the new version")
        let tasks = router.send(.get, "/tasks", query: [("view", "all")]).bodyJSON["items"] as? [[String: Any]] ?? []
        #expect(!tasks.isEmpty && tasks.allSatisfy { ($0["version"] as? String)?.count == 16 }, "every collection's rows")
    }

    @Test func quakeImport_upsertsNewerAndReportsEachRejection() throws {
        func feature(_ id: String, updated: Int, mag: String = "4.2", longitude: String = "-150") -> String {
            """
            {"type":"Feature","id":"\(id)","properties":{"mag":\(mag),"place":"Near Höfn, Iceland","time":1794400000000,"updated":\(updated)},
             "geometry":{"type":"Point","coordinates":[\(longitude),64.2,10]}}
            """
        }
        let first = router.send(
            .post, "/quakes/import",
            json: #"{"type":"FeatureCollection","features":[\#(feature("q1", updated: 1)),\#(feature("q2", updated: 1))]}"#)
        #expect(first.status == .ok)
        #expect(first.bodyJSON["inserted"] as? Int == 2)
        let second = router.send(
            .post, "/quakes/import",
            json:
                #"{"type":"FeatureCollection","features":[\#(feature("q1", updated: 2, mag: "5.1")),\#(feature("q2", updated: 1)),\#(feature("q3", updated: 1, longitude: "999")),{"id":"q4"}]}"#
        )
        let counts = second.bodyJSON
        #expect(counts["updated"] as? Int == 1)
        #expect(counts["unchanged"] as? Int == 1)
        #expect(counts["inserted"] as? Int == 0)
        let rejected = counts["rejected"] as? [[String: Any]] ?? []
        #expect(rejected.compactMap { $0["id"] as? String } == ["q3", "q4"])
        #expect((rejected.first?["reason"] as? String)?.contains("coordinates[0]") == true)
        #expect(service.engine(Quakes.self).state.item(id: "q1")?.magnitude == 5.1)
        #expect(router.send(.post, "/quakes/import", json: #"{"type":"Feature"}"#).status == .unprocessableContent)
        #expect(router.send(.post, "/quakes/import", json: "nope").status == .badRequest)
    }

    /// A magnitude or a time no earthquake has (1e308 overflowed the sort key and stopped the
    /// process) is that feature's rejection, named by its field; the rest of the feed is kept.
    @Test(arguments: [
        (#""mag":1e308,"time":1794400000000,"updated":1"#, "properties.mag"),
        (#""mag":-1e308,"time":1794400000000,"updated":1"#, "properties.mag"),
        (#""mag":1e999,"time":1794400000000,"updated":1"#, "properties.mag"),
        (#""mag":13,"time":1794400000000,"updated":1"#, "properties.mag"),
        (#""mag":4,"time":1e300,"updated":1"#, "properties.time"),
        (#""mag":4,"time":-62135596800001,"updated":1"#, "properties.time"),
        (#""mag":4,"time":1794400000000,"updated":-1e300"#, "properties.updated"),
    ])
    func quakeImport_rejectsAMagnitudeOrTimeNoQuakeHas(properties: String, field: String) throws {
        let feed = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"odd","properties":{\(properties),"place":"x"},"geometry":{"type":"Point","coordinates":[1,2,3]}},
             {"type":"Feature","id":"fine","properties":{"mag":12,"place":"x","time":1794400000000,"updated":1},"geometry":{"type":"Point","coordinates":[1,2,3]}}]}
            """
        let answer = router.send(.post, "/quakes/import", json: feed)
        #expect(answer.status == .ok)
        #expect(answer.bodyJSON["inserted"] as? Int == 1)
        let rejected = answer.bodyJSON["rejected"] as? [[String: Any]] ?? []
        #expect(rejected.compactMap { $0["id"] as? String } == ["odd"])
        #expect((rejected.first?["reason"] as? String)?.contains(field) == true, "\(rejected)")
        #expect(router.send(.get, "/quakes/odd").status == .notFound)
        let page = router.send(.get, "/quakes", query: [("date", "2026-11-11"), ("tz", "UTC"), ("sort", "magnitude")])
        #expect((page.bodyJSON["items"] as? [[String: Any]])?.first?["id"] as? String == "fine", "the strongest of its day")
    }

    @Test func quakeImport_summarisesRejections_andRefusesAMostlyInvalidFeedEarly() throws {
        let good =
            #"{"type":"Feature","id":"ok1","properties":{"mag":1,"place":"x","time":1794400000000,"updated":1},"geometry":{"type":"Point","coordinates":[1,2,3]}}"#
        let mixed = router.send(
            .post, "/quakes/import",
            json: #"{"type":"FeatureCollection","features":["# + ([good] + Array(repeating: "{}", count: 300)).joined(separator: ",") + "]}"
        )
        #expect(mixed.status == .ok)
        #expect(mixed.bodyJSON["inserted"] as? Int == 1)
        #expect(mixed.bodyJSON["rejectedCount"] as? Int == 300)
        #expect((mixed.bodyJSON["rejected"] as? [[String: Any]])?.count == 20, "only the first few are listed")
        let reasons = mixed.bodyJSON["rejectedByReason"] as? [[String: Any]] ?? []
        #expect(reasons.count == 1)
        #expect(reasons.first?["count"] as? Int == 300)
        // Mostly garbage: refused once enough was read, and nothing goes in.
        let garbage = "[" + Array(repeating: "{}", count: 200_000).joined(separator: ",") + "]"
        let refused = router.send(.post, "/quakes/import", json: #"{"type":"FeatureCollection","features":"# + garbage + "}")
        #expect(refused.status == .unprocessableContent)
        #expect(refused.bodyJSON["errorCount"] as? Int == 21)
        #expect(service.engine(Quakes.self).state.count == 1)
    }

    @Test func changes_patchOnlyTheListsThatHoldTheItem() throws {
        let sessionHeaders: HTTPHeaders = ["X-Session-ID": "watcher"]
        _ = router.send(.get, "/orders", query: [("filter", "cancelled")], headers: sessionHeaders)
        let pending = try #require(service.engine(Orders.self).state.allItems.first { $0.status == .pending })
        _ = router.send(.get, "/orders", query: [("filter", "pending")], headers: ["X-Session-ID": "other"])
        let recomputed = service.metrics.value(.recomputations)
        _ = router.send(.post, "/orders/\(pending.id)/complete")
        let cancelled = router.send(.get, "/orders", query: [("filter", "cancelled")], headers: sessionHeaders)
        #expect(cancelled.headers["X-Cache"] == "miss", "its rows are untouched, but its counts changed")
        #expect(
            (cancelled.bodyJSON["counts"] as? [String: Int])?["completed"]
                == service.engine(Orders.self).state.allItems.count {
                    $0.status == .completed
                })
        let pendingAfter = router.send(.get, "/orders", query: [("filter", "pending")], headers: ["X-Session-ID": "other"])
        #expect(!ids(pendingAfter.bodyJSON).contains(pending.id))
        #expect(service.metrics.value(.recomputations) == recomputed, "patched, not recomputed")
        #expect(service.metrics.value(.listsPatched) >= 1)
    }
}
