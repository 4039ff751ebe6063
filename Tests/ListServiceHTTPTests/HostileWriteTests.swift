import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// Writes and reads probed as a careless or hostile client would: media types, preconditions
/// across representations, oversized refusals, duplicate keys, tampered cursors, encoded slashes.
@Suite struct HostileWriteTests {
    let service = makeWriteTestService()
    var router: ServiceHandler { ServiceRoutes.makeHandler(service: service) }

    @Test(arguments: ["application/merge-patch+json", "application/json", "Application/Merge-Patch+JSON; charset=utf-8"])
    func patch_acceptsMergePatchAndJSON(contentType: String) {
        let response = router.send(
            .patch, "/orders/o-000001", headers: ["Content-Type": contentType], json: #"{"customerName":"Ann Lee"}"#)
        #expect(response.status == .ok)
        #expect(service.engine(Orders.self).state.item(id: "o-000001")?.customerName == "Ann Lee")
    }

    @Test func patch_refusesOtherMediaTypes_namingMergePatch() {
        let response = router.send(.patch, "/orders/o-000001", headers: ["Content-Type": "text/plain"], json: #"{"customerName":"Ann"}"#)
        #expect(response.status == .unsupportedMediaType)
        #expect(response.headers["Accept-Patch"] == "application/merge-patch+json")
    }

    @Test func ifMatch_comparesTheItemsVersion_notTheRepresentation() {
        let german = router.send(.get, "/orders/o-000002", query: [("tz", "Europe/Berlin")], headers: ["Accept-Language": "de-DE"])
        let english = router.send(.get, "/orders/o-000002")
        let germanTag = german.headers["ETag"] ?? "", englishTag = english.headers["ETag"] ?? ""
        #expect(germanTag != englishTag, "each representation has its own ETag for If-None-Match")
        let patched = router.send(
            .patch, "/orders/o-000002", headers: ["If-Match": germanTag], json: #"{"customerName":"Read In German"}"#)
        #expect(patched.status == .ok, "an ETag read in another locale still names this version")
        let stale = router.send(.patch, "/orders/o-000002", headers: ["If-Match": englishTag], json: #"{"customerName":"Too Late"}"#)
        #expect(stale.status == .preconditionFailed, "the item changed since")
        let current = patched.headers["ETag"] ?? ""
        #expect(
            router.send(.patch, "/orders/o-000002", headers: ["If-Match": "W/" + current], json: #"{"customerName":"Weak"}"#).status
                == .preconditionFailed, "a weak tag never matches")
        #expect(router.send(.patch, "/orders/o-000002", headers: ["If-Match": current], json: #"{"customerName":"Strong"}"#).status == .ok)
    }

    /// A version sent without its quotes is not an entity tag: a 400 naming `If-Match` (a 412
    /// would send the client to fetch the item again, to fail the same way), on every kind of
    /// write, and nothing changes.
    @Test func anIfMatchThatIsNoEntityTag_is400_namingTheHeader() throws {
        let row = router.send(.get, "/orders/o-000003")
        let version = try #require(row.bodyJSON["version"] as? String)
        for (method, path, json) in [
            (HTTPMethod.patch, "/orders/o-000003", #"{"customerName":"Unquoted"}"#), (.post, "/orders/o-000003/cancel", nil),
            (.delete, "/orders/o-000003", nil),
        ] {
            for header in [version, "\"\(version)", "W/\(version)", "\"\(version)\", \(version)"] {
                let refused = router.send(method, path, headers: ["If-Match": header], json: json)
                #expect(refused.status == .badRequest, "\(method) \(header)")
                #expect(refused.bodyJSON["code"] as? String == "invalid-if-match" && refused.bodyJSON["parameter"] as? String == "If-Match")
            }
        }
        #expect(router.send(.get, "/orders/o-000003").bodyBytes == row.bodyBytes, "nothing changed")
        let quoted = router.send(.patch, "/orders/o-000003", headers: ["If-Match": "\"\(version)\""], json: #"{"customerName":"Quoted"}"#)
        #expect(quoted.status == .ok)
    }

    @Test func everyInvalidField_isNamedAtOnce_inEveryWrite() {
        let task = router.send(.post, "/tasks", json: #"{"title":"  ","priority":"someday","dueDate":"next week"}"#)
        #expect(Set(fieldNames(task)) == ["title", "priority", "dueDate"])
        let taskPatch = router.send(.patch, "/tasks/t-000001", json: #"{"title":"","priority":1,"dueDate":"2026-13-45","isActive":"yes"}"#)
        #expect(Set(fieldNames(taskPatch)) == ["title", "priority", "dueDate", "isActive"])
        let orderPatch = router.send(
            .patch, "/orders/o-000001",
            json: #"{"customerName":" ","shippingAddress":{"street":"","city":"\#(String(repeating: "x", count: 201))"}}"#)
        #expect(Set(fieldNames(orderPatch)) == ["customerName", "shippingAddress.street", "shippingAddress.city"])
    }

    @Test func aRefusal_listsAtMost50Problems_andCountsThemAll() {
        let junk = (0..<5_000).map { "\"unknown\($0)\":1" }.joined(separator: ",")
        let response = router.send(.post, "/tasks", json: "{\(junk)}")
        #expect(response.status == .unprocessableContent)
        #expect(fieldNames(response).count == 50)
        #expect(response.bodyJSON["errorCount"] as? Int == 5_002, "5,000 unknown fields, no title, no due date")
        guard case .bytes(let body) = response.body else {
            Issue.record("the refusal is not a plain body")
            return
        }
        #expect(body.count < 8_000, "the refusal is far smaller than the request")
    }

    @Test func duplicateKeys_areABadBody() {
        let response = router.send(.patch, "/orders/o-000001", json: #"{"customerName":"A B","customerName":"C D"}"#)
        #expect(response.status == .badRequest)
        #expect(service.engine(Orders.self).state.item(id: "o-000001")?.customerName != "A B")
    }

    @Test func largeBody_isParsedOffTheLoop_andStillAnswered() {
        let padding = String(repeating: " ", count: JSONBody.inlineParseBytes + 1)
        let response = router.send(.patch, "/orders/o-000003", json: #"{"customerName":"Far Away"}"# + padding)
        #expect(response.status == .ok)
        let malformed = router.send(.patch, "/orders/o-000003", json: #"{"customerName":"# + padding)
        #expect(malformed.status == .badRequest)
    }

    @Test func encodedSlash_doesNotSplitASegment() {
        #expect(router.send(.get, "/orders%2Fo-000001").status == .notFound)
    }

    @Test func tamperedCursor_isA400() throws {
        let page = router.send(.get, "/orders", query: [("sort", "total"), ("limit", "5")]).bodyJSON
        let cursor = try #require(page["nextCursor"] as? String)
        #expect(router.send(.get, "/orders", query: [("sort", "total"), ("limit", "5"), ("cursor", cursor)]).status == .ok)
        // Decode, swap the sort value for a name, encode again: the checksum no longer fits.
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let text = String(decoding: try #require(Data(base64Encoded: base64)), as: UTF8.self)
        var parts = text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        parts[2] = "tZoë"
        let forged = Data(parts.joined(separator: "\u{1F}").utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let response = router.send(.get, "/orders", query: [("sort", "total"), ("limit", "5"), ("cursor", forged)])
        #expect(response.status == .badRequest)
        #expect(response.bodyJSON["parameter"] as? String == "cursor")
    }

    @Test func cursorWithASortValueOfTheWrongKind_isA400() throws {
        // A checksum-valid cursor whose value is text in a list sorted by a number.
        let page = router.send(.get, "/orders", query: [("sort", "total"), ("limit", "5")]).bodyJSON
        let text = try #require(page["nextCursor"] as? String)
        let issued = try #require(PageCursor(encoded: text))
        let foreign = PageCursor(fingerprint: issued.fingerprint, sortValue: "tZoë", id: issued.id).encoded
        #expect(router.send(.get, "/orders", query: [("sort", "total"), ("limit", "5"), ("cursor", foreign)]).status == .badRequest)
    }

    private func fieldNames(_ response: Response) -> [String] {
        (response.bodyJSON["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
    }
}
