import Foundation
import HTTPLite
import ListServiceAuth
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// `/auth/demo`: identities to pick from, and tokens for them that the service takes.
@Suite struct DemoIdentityTests {
    static let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()
    let service = CollectionService(
        stores: [
            CollectionState<Orders>(items: DefaultOrders.make(count: 3_000, anchor: anchor)),
            CollectionState<Tasks>(items: DefaultTasks.make(count: 2_000, anchor: anchor)),
        ], log: .discarding)

    func handler(demo: DemoIdentities?) -> ServiceHandler {
        let tokens = demo.map { TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [$0.verificationKey]))) }
        return ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(
                hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: true),
                credentials: Credentials(tokens: tokens, requiresIdentity: false)),
            demo: demo)
    }

    @Test func identities_areCustomersWithOrdersAndTasks_staffAndAdmin() throws {
        let demo: DemoIdentities = try #require(DemoIdentities())
        let handler = handler(demo: demo)
        let listed = try #require(handler.send(.get, "/auth/demo").bodyJSON["identities"] as? [[String: String]])
        #expect(listed.map { $0["role"] } == ["customer", "customer", "customer", "staff", "admin"])
        let orders = service.engine(Orders.self).state.allItems, tasks = service.engine(Tasks.self).state.allItems
        for customer in listed.prefix(3) {
            let account = try #require(customer["sub"])
            #expect(orders.contains { $0.customer.text == account } && tasks.contains { $0.owner.text == account })
            #expect(orders.first { $0.customer.text == account }?.customerName == customer["name"])
        }
    }

    @Test func aDemoToken_narrowsTheCallerToItsIdentity() throws {
        let demo: DemoIdentities = try #require(DemoIdentities())
        let handler = handler(demo: demo)
        let account = try #require((handler.send(.get, "/auth/demo").bodyJSON["identities"] as? [[String: String]])?.first?["sub"])
        let signIn = handler.send(.post, "/auth/demo", json: #"{"sub":"\#(account)","role":"customer"}"#)
        #expect(signIn.status == .ok && signIn.bodyJSON["sub"] as? String == account)
        let token = try #require(signIn.bodyJSON["token"] as? String)
        let expiresAt = try #require((signIn.bodyJSON["expiresAt"] as? String).flatMap(ISO8601.parse))
        #expect(abs(expiresAt.timeIntervalSinceNow - DemoIdentities.lifetime) < 5)

        let theirs = service.engine(Orders.self).state.allItems.count { $0.customer.text == account }
        let signedIn = handler.send(.get, "/orders", headers: ["Authorization": "Bearer \(token)"])
        #expect(signedIn.bodyJSON["total"] as? Int == theirs && theirs > 0)
        #expect(handler.send(.get, "/orders").bodyJSON["total"] as? Int == 3_000, "anonymous callers still see everything here")

        let badRole = handler.send(.post, "/auth/demo", json: #"{"sub":"x","role":"service"}"#)
        #expect(badRole.status == .unprocessableContent)
        #expect(handler.send(.post, "/auth/demo", json: #"{"role":"staff"}"#).status == .unprocessableContent)
    }

    @Test func withoutDemoIdentities_thereIsNoSignIn() {
        let handler = handler(demo: nil)
        #expect(handler.send(.get, "/auth/demo").status == .notFound)
        #expect(handler.send(.post, "/auth/demo", json: #"{"sub":"c-0001"}"#).status == .notFound)
    }
}
