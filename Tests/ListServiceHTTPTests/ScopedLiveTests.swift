import Basics
import Foundation
import HTTPLite
import ListServiceAuth
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// Live lists per scope: random writes by two customers and staff, and after each step every
/// identity's live window, folded from its events, equals a fresh page read by that identity
/// and holds no row of another's.
@Suite struct ScopedLiveTests {
    static let now = ISO8601.parse("2026-11-20T12:00:00Z") ?? Date()
    static let accounts = ["c-0001", "c-0002"]

    @Test func randomWritesByThreeIdentities_keepEachWindowTheirsAndCurrent() throws {
        let orders = DefaultOrders.make(count: 40, anchor: Self.now).enumerated().map { index, order in
            var order = order
            order.customer = index % 4 == 3 ? .none : OwnerID(Self.accounts[index % 2])
            return order
        }
        let service = CollectionService(
            stores: [CollectionState<Orders>(items: orders)], live: LiveListTests.eventPerBatch, log: .discarding)
        let signer = try #require(TokenSigner(keyID: "live"))
        let tokens = TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [signer.verificationKey])))
        let handler = ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(
                hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: true),
                credentials: Credentials(tokens: tokens, requiresIdentity: true)))
        let identities = Self.accounts.map { Identity(subject: $0, role: .customer) } + [Identity(subject: "s-1", role: .staff)]
        func headers(_ identity: Identity, json: Bool = false) -> HTTPHeaders {
            var headers: HTTPHeaders = ["Authorization": "Bearer " + signer.token(for: identity, now: Date(), lifetime: 600)]
            if json { headers.add(name: "Content-Type", value: "application/merge-patch+json") }
            return headers
        }
        let queries: [[(String, String)]] = [
            [("limit", "5")], [("filter", "pending"), ("sort", "total"), ("limit", "4")], [("q", "o"), ("order", "asc"), ("limit", "6")],
        ]
        guard let endpoint = service.endpoints.first(where: { $0.name == "orders" }) else { throw LiveListTests.LiveTestError.noEndpoint }
        var watched: [(identity: Identity, query: [(String, String)], recorder: LiveRecorder)] = []
        for identity in identities {
            for query in queries {
                let recorder = LiveRecorder()
                do throws(LiveOpenError) {
                    try endpoint.live(ListRequest(parameters: query, caller: .identified(identity)), nil, .list, nil, .ownStream).start(
                        recorder)
                } catch {
                    throw LiveListTests.LiveTestError.refused("\(error)")
                }
                watched.append((identity, query, recorder))
            }
        }
        var generator = SplitMix64(seed: 28)
        let create = { (account: String?) in
            account.map { Order.validCreateBody.replacing(#"{"customerName""#, with: #"{"customerId":"\#($0)","customerName""#) }
                ?? Order.validCreateBody
        }
        for step in 0..<80 {
            let actor = identities[Int.random(in: 0..<identities.count, using: &generator)]
            let orderID = "o-" + String(zeroPadded: Int.random(in: 1...44, using: &generator), width: 6)
            switch (actor.role, Int.random(in: 0..<5, using: &generator)) {
            case (.customer, 0): _ = handler.send(.post, "/orders", headers: headers(actor), json: create(nil))
            case (.customer, 1), (.customer, 2): _ = handler.send(.post, "/orders/\(orderID)/cancel", headers: headers(actor))
            case (.customer, _):
                _ = handler.send(
                    .patch, "/orders/\(orderID)", headers: headers(actor, json: true), json: #"{"shippingAddress":{"city":"Bergen"}}"#)
            case (_, 0):
                _ = handler.send(.post, "/orders", headers: headers(actor), json: create(Self.accounts.randomElement(using: &generator)))
            case (_, 1): _ = handler.send(.post, "/orders/\(orderID)/complete", headers: headers(actor))
            case (_, 2): _ = handler.send(.delete, "/orders/\(orderID)", headers: headers(actor))
            default:
                _ = handler.send(.patch, "/orders/\(orderID)", headers: headers(actor, json: true), json: #"{"customerName":"Jo Zebra"}"#)
            }
            service.live.settle()
            for (identity, query, recorder) in watched {
                var replica = LiveWindowReplica()
                for event in recorder.events { replica.apply(event) }
                let fresh = handler.send(.get, "/orders", query: query, headers: headers(identity)).bodyJSON
                let label = "step \(step) \(identity.subject) \(query)"
                #expect(replica.problems.isEmpty, "\(label): \(replica.problems)")
                #expect((replica.items as NSArray).isEqual(to: fresh["items"] as? [[String: Any]] ?? []), "\(label): window differs")
                #expect(replica.total == fresh["total"] as? Int, "\(label): total")
                guard identity.role == .customer else { continue }
                let state = service.engine(Orders.self).state
                let foreign = replica.items.compactMap { $0["id"] as? String }.filter {
                    state.item(id: $0)?.customer != OwnerID(identity.subject)
                }
                #expect(foreign.isEmpty, "\(label): another's rows \(foreign)")
            }
        }
        let deltas = watched.reduce(0) { $0 + $1.recorder.events.count { $0.name == "delta" } }
        #expect(deltas > 30, "the writes reached the windows as deltas")
    }
}

extension ScopedLiveTests {
    /// A stream resumed with the last event id of another caller's list starts over with a
    /// `reset` (reason `scope`), never replaying or keeping another's window.
    @Test func anEventIDOfAnotherScope_resetsTheStream() throws {
        let orders = DefaultOrders.make(count: 20, anchor: Self.now).enumerated().map { index, order in
            var order = order
            order.customer = OwnerID(Self.accounts[index % 2])
            return order
        }
        let service = CollectionService(
            stores: [CollectionState<Orders>(items: orders)], live: LiveListTests.eventPerBatch, log: .discarding)
        guard let endpoint = service.endpoints.first(where: { $0.name == "orders" }) else { throw LiveListTests.LiveTestError.noEndpoint }
        func open(_ caller: Caller, lastEventID: String? = nil) throws -> LiveRecorder {
            let recorder = LiveRecorder()
            do throws(LiveOpenError) {
                try endpoint.live(ListRequest(parameters: [("limit", "3")], caller: caller), nil, .list, lastEventID, .ownStream).start(
                    recorder)
            } catch {
                throw LiveListTests.LiveTestError.refused("\(error)")
            }
            return recorder
        }
        let alice = Caller.identified(Identity(subject: "c-0001", role: .customer))
        let bob = Caller.identified(Identity(subject: "c-0002", role: .customer))
        let staff = Caller.identified(Identity(subject: "s-1", role: .staff))
        let alicesID = try #require(try open(alice).events.first?.id)
        let staffID = try #require(try open(staff).events.first?.id)
        #expect(alicesID != staffID && alicesID.hasPrefix(service.live.epoch + "~"))
        for (caller, id) in [(bob, alicesID), (staff, alicesID), (bob, staffID)] {
            let resumed = try open(caller, lastEventID: id)
            #expect(resumed.events.first?.name == "reset" && resumed.events.first?.data["reason"] as? String == "scope")
        }
        let again = try open(alice, lastEventID: alicesID)
        #expect(again.events.isEmpty, "Alice's own id: up to date, nothing to send")
        let restarted = try open(alice, lastEventID: "zzzz~0123abcd-5")
        #expect(restarted.events.first?.data["reason"] as? String == "restart")
    }
}
