import Basics
import Foundation
import HTTPLite
import ListServiceAuth
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// Who sees and changes what, through the whole front door with real tokens: two customers
/// and staff over orders, tasks by owner, the public people list, the import for admins.
@Suite struct AccessTests {
    static let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()
    /// Sixty orders: every third is c-0001's, the next c-0002's, the rest another's or nobody's.
    static func orders() -> [Order] {
        DefaultOrders.make(count: 60, anchor: anchor).enumerated().map { index, order in
            var order = order
            switch index % 3 {
            case 0: order.customer = OwnerID("c-0001")
            case 1: order.customer = OwnerID("c-0002")
            default: order.customer = index % 2 == 0 ? .none : OwnerID("c-0999")
            }
            return order
        }
    }

    let service = CollectionService(
        stores: [
            CollectionState<Orders>(items: orders()),
            CollectionState<Tasks>(items: [
                TaskItem(
                    id: "t-000001", title: "Mine", isActive: true, isArchived: false, dueDate: anchor, priority: .high,
                    owner: OwnerID("s-1")),
                TaskItem(
                    id: "t-000002", title: "Theirs", isActive: true, isArchived: false, dueDate: anchor, priority: .low,
                    owner: OwnerID("c-0001")),
            ]),
            CollectionState<Users>(items: [User(id: "u-000001", name: "Ann", taps: 0)]),
        ], log: .discarding)
    let signer = TokenSigner(keyID: "test")
    let handler: ServiceHandler

    init() throws {
        let signer = try #require(signer)
        let tokens = TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [signer.verificationKey])))
        handler = ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(
                hosts: .any, cors: .off, keys: APIKeys(keys: ["service-key"], boundToLoopback: true),
                credentials: Credentials(tokens: tokens, requiresIdentity: true)))
    }

    func bearer(_ subject: String, _ role: Identity.Role = .customer, lifetime: TimeInterval = 600) -> HTTPHeaders {
        ["Authorization": "Bearer " + (signer?.token(for: Identity(subject: subject, role: role), now: Date(), lifetime: lifetime) ?? "")]
    }

    var alice: HTTPHeaders { bearer("c-0001") }
    var bob: HTTPHeaders { bearer("c-0002") }
    var staff: HTTPHeaders { bearer("s-1", .staff) }

    func ids(_ response: Response) -> [String] {
        (response.bodyJSON["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    }
    func owned(by account: String) -> Set<String> {
        Set(service.engine(Orders.self).state.allItems.filter { $0.customer == OwnerID(account) }.map(\.id))
    }

    @Test func withoutAValidToken_ordersAndWritesAre401_withTheBearerChallenge() {
        let anonymous = handler.send(.get, "/orders")
        #expect(anonymous.status == .unauthorized && anonymous.headers["WWW-Authenticate"] == #"Bearer realm="listservice""#)
        let garbage = handler.send(.get, "/orders", headers: ["Authorization": "Bearer a.b.c"])
        #expect(garbage.status == .unauthorized)
        #expect(garbage.headers["WWW-Authenticate"] == #"Bearer realm="listservice", error="invalid_token""#)
        #expect(garbage.bodyJSON["detail"] as? String == "The bearer token is not valid.")
        let expired = handler.send(.get, "/orders", headers: bearer("c-0001", lifetime: -60))
        #expect(expired.status == .unauthorized && expired.bodyJSON["detail"] as? String == "The bearer token has expired.")
        let token = String(alice["Authorization"]?.dropFirst("Bearer ".count) ?? "")
        for name in ["access_token", "token"] {
            #expect(handler.send(.get, "/orders", query: [(name, token)]).status == .unauthorized, "a token in the query is never read")
        }
        #expect(handler.send(.get, "/orders/o-000001").status == .unauthorized)
        #expect(handler.send(.get, "/orders/live").status == .unauthorized)
        #expect(handler.send(.post, "/users/u-000001/tap").status == .unauthorized, "writes need an identity")
        #expect(handler.send(.get, "/users").status == .ok, "people are public to read")
        #expect(handler.send(.get, "/health").status == .ok)
    }

    @Test func theBearerCredential_isReadFromTheHeaderAsRFC9110Says() {
        #expect(Credentials.bearerToken("Bearer abc.def.ghi") == "abc.def.ghi")
        #expect(Credentials.bearerToken("bearer \t abc  ") == "abc" && Credentials.bearerToken("BEARER x") == "x")
        for refused in ["Basic abc", "Bearer", "Bearer ", "Bearerabc", "Bearer \t ", "Token abc", ""] {
            #expect(Credentials.bearerToken(refused) == nil, "\(refused)")
        }
        #expect(Credentials.isTokenShaped("a.b.c") && !Credentials.isTokenShaped("a.b") && !Credentials.isTokenShaped("a.b.c.d"))
    }

    /// `Bearer` with no token (a client whose token went missing) is refused as a malformed
    /// token (401, RFC 6750 `invalid_token`), on a public read and on a write alike, and
    /// changes nothing; another scheme is not read (a proxy in front may pass on its own
    /// `Basic`): its caller is anonymous.
    @Test func aBearerCredentialWithoutAToken_is401_notAnAnonymousCaller() {
        for empty in ["Bearer", "Bearer ", "bearer \t ", "BEARER"] {
            let read = handler.send(.get, "/users", headers: ["Authorization": empty])
            #expect(read.status == .unauthorized, "\(empty)")
            #expect(read.bodyJSON["parameter"] as? String == "Authorization")
            #expect(read.headers["WWW-Authenticate"] == #"Bearer realm="listservice", error="invalid_token""#)
            let tap = handler.send(.post, "/users/u-000001/tap", headers: ["Authorization": empty])
            #expect(tap.status == .unauthorized)
        }
        #expect(service.engine(Users.self).state.item(id: "u-000001")?.taps == 0, "a refused request changes nothing")
        #expect(handler.send(.get, "/users", headers: ["Authorization": "Basic dXNlcjpwYXNz"]).status == .ok)
        #expect(handler.send(.get, "/orders", headers: ["Authorization": "Basic dXNlcjpwYXNz"]).status == .unauthorized, "anonymous")
    }

    @Test func eachCustomer_seesOnlyTheirOrders_totalsSearchCursorsDetails() throws {
        for (headers, account) in [(alice, "c-0001"), (bob, "c-0002")] {
            let mine = owned(by: account)
            let page = handler.send(.get, "/orders", query: [("limit", "500")], headers: headers)
            #expect(page.status == .ok && Set(ids(page)) == mine && page.bodyJSON["total"] as? Int == mine.count)
            let searched = handler.send(.get, "/orders", query: [("q", "order #10")], headers: headers)
            #expect(Set(ids(searched)).isSubset(of: mine))
            // Paging by cursor walks exactly their orders.
            var seen: [String] = []
            var cursor: String?
            repeat {
                let next = handler.send(
                    .get, "/orders", query: [("limit", "3")] + (cursor.map { [("cursor", $0)] } ?? []), headers: headers)
                seen += ids(next)
                cursor = next.bodyJSON["nextCursor"] as? String
            } while cursor != nil && seen.count <= mine.count
            #expect(seen.count == mine.count && Set(seen) == mine)
        }
        let alicesOrder = try #require(owned(by: "c-0001").sorted().first)
        #expect(handler.send(.get, "/orders/\(alicesOrder)", headers: alice).status == .ok)
        let hidden = handler.send(.get, "/orders/\(alicesOrder)", headers: bob)
        #expect(hidden.status == .notFound, "another customer's order does not exist for them")
        let alicesTag = handler.send(.get, "/orders", headers: alice).headers["ETag"]
        #expect(alicesTag != handler.send(.get, "/orders", headers: bob).headers["ETag"])
        let first = handler.send(.get, "/orders", query: [("limit", "2")], headers: alice)
        let cursor = try #require(first.bodyJSON["nextCursor"] as? String)
        let stolen = handler.send(.get, "/orders", query: [("limit", "2"), ("cursor", cursor)], headers: bob)
        #expect(stolen.status == .badRequest && stolen.bodyJSON["parameter"] as? String == "cursor")
        let everything = service.engine(Orders.self).state.count
        #expect(handler.send(.get, "/orders", headers: staff).bodyJSON["total"] as? Int == everything)
        #expect(handler.send(.get, "/orders", headers: ["Authorization": "Bearer service-key"]).bodyJSON["total"] as? Int == everything)
    }

    @Test func customersWrites_areTheirOwn_staffDoTheRest() throws {
        let created = handler.send(.post, "/orders", headers: alice, json: Order.validCreateBody)
        #expect(created.status == .created)
        let newID = try #require(created.bodyJSON["id"] as? String)
        #expect(service.engine(Orders.self).state.item(id: newID)?.customer == OwnerID("c-0001"), "a customer's order is theirs")
        let forOther = handler.send(
            .post, "/orders", headers: alice,
            json: Order.validCreateBody.replacing(#"{"customerName""#, with: #"{"customerId":"c-0002","customerName""#))
        #expect(forOther.status == .forbidden && forOther.bodyJSON["code"] as? String == "forbidden")

        #expect(handler.send(.post, "/orders/\(newID)/cancel", headers: bob).status == .notFound, "not Bob's to see")
        #expect(handler.send(.post, "/orders/\(newID)/complete", headers: alice).status == .forbidden)
        let address = #"{"shippingAddress":{"city":"Bergen"}}"#
        #expect(
            handler.send(
                .patch, "/orders/\(newID)", headers: alice.merging(["Content-Type": "application/merge-patch+json"]), json: address
            ).status == .ok)
        let rename = handler.send(
            .patch, "/orders/\(newID)", headers: alice.merging(["Content-Type": "application/merge-patch+json"]),
            json: #"{"customerName":"X"}"#)
        #expect(rename.status == .forbidden && (rename.bodyJSON["detail"] as? String)?.contains("customerName") == true)
        #expect(handler.send(.delete, "/orders/\(newID)", headers: alice).status == .forbidden)
        #expect(handler.send(.post, "/orders/\(newID)/cancel", headers: alice).status == .ok, "their own pending order")
        #expect(service.engine(Orders.self).state.item(id: newID)?.status == .cancelled)

        let bobs = try #require(owned(by: "c-0002").sorted().first { service.engine(Orders.self).state.item(id: $0)?.status == .pending })
        #expect(handler.send(.post, "/orders/\(bobs)/complete", headers: staff).status == .ok, "staff complete any order")
        let staffOrder = handler.send(
            .post, "/orders", headers: staff,
            json: Order.validCreateBody.replacing(#"{"customerName""#, with: #"{"customerId":"c-0002","customerName""#))
        #expect(staffOrder.status == .created)
        let staffOrderID = try #require(staffOrder.bodyJSON["id"] as? String)
        #expect(Set(ids(handler.send(.get, "/orders", query: [("limit", "500")], headers: bob))).contains(staffOrderID))
    }

    /// An order row says what its reader may do: a customer may cancel their own pending order
    /// but neither complete nor delete it, staff may do all three. The list, the detail and a
    /// write's answer agree, though staff and the customer read the same order in the same
    /// locale (no shared bytes carry one's flags to the other), and each flag is what the action
    /// then answers.
    @Test func orderRows_sayWhatTheirReaderMayDo() throws {
        func flags(_ row: [String: Any]?) -> [Bool?] { ["canComplete", "canCancel", "canDelete"].map { row?[$0] as? Bool } }
        let created = handler.send(.post, "/orders", headers: alice, json: Order.validCreateBody)
        let id = try #require(created.bodyJSON["id"] as? String)
        #expect(flags(created.bodyJSON) == [false, true, false], "the answer to the customer's own create")
        for _ in 0..<2 {  // the second round reads shared pages
            for (who, expected) in [(alice, [false, true, false]), (staff, [true, true, true])] {
                let row = (handler.send(.get, "/orders", query: [("limit", "500")], headers: who).bodyJSON["items"] as? [[String: Any]])?
                    .first { $0["id"] as? String == id }
                #expect(flags(row) == expected)
                #expect(flags(handler.send(.get, "/orders/\(id)", headers: who).bodyJSON) == expected)
            }
        }
        #expect(handler.send(.post, "/orders/\(id)/complete", headers: alice).status == .forbidden, "as canComplete said")
        let patch = staff.merging(["Content-Type": "application/merge-patch+json"])
        let patched = handler.send(.patch, "/orders/\(id)", headers: patch, json: #"{"customerName":"Y"}"#)
        #expect(flags(patched.bodyJSON) == [true, true, true], "the answer to staff's write")
        let cancelled = handler.send(.post, "/orders/\(id)/cancel", headers: alice)
        #expect(cancelled.status == .ok && flags(cancelled.bodyJSON) == [false, false, false], "a cancelled order moves no more")
        #expect(flags(handler.send(.get, "/orders/\(id)", headers: staff).bodyJSON) == [false, false, true], "staff may still delete it")
        #expect(handler.send(.delete, "/orders/\(id)", headers: alice).status == .forbidden, "as canDelete said")
    }

    @Test func tasks_byOwner_peopleAndImport_byRole() {
        #expect(ids(handler.send(.get, "/tasks", query: [("view", "all")], headers: staff)) == ["t-000001"], "staff see their own tasks")
        #expect(ids(handler.send(.get, "/tasks", query: [("view", "all")], headers: alice)) == ["t-000002"])
        #expect(
            Set(ids(handler.send(.get, "/tasks", query: [("view", "all")], headers: bearer("a-1", .admin)))) == ["t-000001", "t-000002"])
        #expect(
            handler.send(
                .patch, "/tasks/t-000001", headers: alice.merging(["Content-Type": "application/merge-patch+json"]), json: #"{"title":"x"}"#
            ).status == .notFound)

        #expect(handler.send(.post, "/users/u-000001/tap", headers: alice).status == .ok, "anyone signed in taps")
        #expect(handler.send(.post, "/users", headers: alice, json: #"{"name":"Eve"}"#).status == .forbidden)
        #expect(handler.send(.post, "/users", headers: bearer("a-1", .admin), json: #"{"name":"Eve"}"#).status == .created)
        let importByCustomer = handler.send(.post, "/quakes/import", headers: alice, json: "{}")
        #expect(
            importByCustomer.status == .forbidden && (importByCustomer.bodyJSON["detail"] as? String)?.contains("administrators") == true)
    }

    @Test func aSessionIsBoundToItsIdentity_andStaffShareOneComputation() {
        let session: HTTPHeaders = ["X-Session-ID": "shared-id"]
        let alicesPage = handler.send(.get, "/orders", query: [("limit", "500")], headers: alice.merging(session))
        let bobsPage = handler.send(.get, "/orders", query: [("limit", "500")], headers: bob.merging(session))
        #expect(Set(ids(bobsPage)) == owned(by: "c-0002") && Set(ids(alicesPage)) == owned(by: "c-0001"))

        let before = service.metrics.value(.recomputations)
        for index in 0..<5 {
            let response = handler.send(
                .get, "/orders", query: [("filter", "completed"), ("sort", "total")],
                headers: bearer("s-\(index)", .staff).merging(["X-Session-ID": "staff-\(index)"]))
            #expect(response.status == .ok)
        }
        #expect(service.metrics.value(.recomputations) == before + 1, "five staff sessions, one computed list")
    }
}

extension HTTPHeaders {
    /// These headers with `other`'s added.
    func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        for field in other { merged.add(name: field.name, value: field.value) }
        return merged
    }
}

extension AccessTests {
    /// EventSource cannot send `Authorization`: a signed-in page trades its token for a
    /// one-use ticket and opens the stream with `?ticket=`.
    @Test func liveTickets_standForTheCaller_once() throws {
        let ticketed = handler.send(.post, "/live/tickets", headers: alice)
        #expect(ticketed.status == .ok)
        let ticket = try #require(ticketed.bodyJSON["ticket"] as? String)
        let expiresAt = try #require((ticketed.bodyJSON["expiresAt"] as? String).flatMap(ISO8601.parse))
        #expect(abs(expiresAt.timeIntervalSinceNow - LiveTickets.lifetime) < 5)

        #expect(handler.send(.get, "/orders", query: [("ticket", ticket)]).status == .unauthorized, "a ticket opens live streams only")
        let stream = try handler.handle(
            Request(method: .get, path: "/orders/live", query: QueryParameters([.init(name: "ticket", value: ticket)])))
        #expect(stream.status == .ok && stream.headers["Content-Type"] == "text/event-stream")
        let again = handler.send(.get, "/orders/live", query: [("ticket", ticket)])
        #expect(again.status == .unauthorized && again.headers["WWW-Authenticate"]?.contains("invalid_token") == true, "one use")
        #expect(handler.send(.get, "/orders/live", query: [("ticket", "made-up")]).status == .unauthorized)
        #expect(handler.send(.post, "/live/tickets").status == .unauthorized, "a ticket is for a signed-in caller")
    }

    @Test func aLiveTicket_expires() throws {
        let clock = Locked(Date())
        let signer = try #require(signer)
        let credentials = Credentials(
            tokens: TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [signer.verificationKey]))), requiresIdentity: true,
            clock: { clock.withLock { $0 } })
        let handler = ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: true), credentials: credentials))
        let ticket = try #require(handler.send(.post, "/live/tickets", headers: alice).bodyJSON["ticket"] as? String)
        clock.withLock { $0 += LiveTickets.lifetime + 1 }
        #expect(handler.send(.get, "/orders/live", query: [("ticket", ticket)]).status == .unauthorized)
    }
}
