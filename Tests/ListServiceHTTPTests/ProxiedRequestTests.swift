import Foundation
import HTTPLite
import ListServiceAuth
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// Behind a reverse proxy every visitor arrives from the proxy's loopback address: what a
/// loopback server grants by default (demo identities, writes without a credential) is not
/// granted to a request a proxy passed on, unless the server was told to (`--demo-identities`,
/// `--allow-anonymous-writes`).
@Suite struct ProxiedRequestTests {
    static let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()
    static let proxyHeaders: [HTTPHeaders] = [
        ["X-Forwarded-For": "203.0.113.9"], ["Forwarded": "for=203.0.113.9;proto=https"], ["X-Real-IP": "203.0.113.9"],
    ]

    func handler(demo: DemoIdentities?, keys: APIKeys) -> (ServiceHandler, CollectionService) {
        let service = CollectionService(
            stores: [
                CollectionState<Orders>(items: DefaultOrders.make(count: 300, anchor: Self.anchor)),
                CollectionState<Tasks>(items: DefaultTasks.make(count: 200, anchor: Self.anchor)),
            ], log: .discarding)
        let tokens = demo.map { TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [], signedHere: [$0.verificationKey]))) }
        let handler = ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(hosts: .any, cors: .off, keys: keys, credentials: Credentials(tokens: tokens, requiresIdentity: false)),
            demo: demo)
        return (handler, service)
    }

    @Test func demoIdentitiesOnByDefault_are404ThroughAProxy_withTheReason() throws {
        let demo: DemoIdentities = try #require(DemoIdentities())
        let (handler, _) = handler(demo: demo, keys: APIKeys(keys: [], boundToLoopback: true))
        #expect(handler.send(.get, "/auth/demo").status == .ok)
        #expect(handler.send(.post, "/auth/demo", json: #"{"sub":"mallory","role":"admin"}"#).status == .ok)
        for headers in Self.proxyHeaders {
            let listed = handler.send(.get, "/auth/demo", headers: headers)
            #expect(listed.status == .notFound && listed.headers["Content-Type"] == "application/problem+json")
            #expect((listed.bodyJSON["detail"] as? String)?.contains("came through a proxy") == true)
            let signIn = handler.send(.post, "/auth/demo", headers: headers, json: #"{"sub":"mallory","role":"admin"}"#)
            #expect(signIn.status == .notFound && signIn.bodyJSON["token"] == nil)
        }
    }

    @Test func demoIdentitiesAskedFor_stayThroughAProxy() throws {
        let demo: DemoIdentities = try #require(DemoIdentities(isExplicit: true))
        let (handler, _) = handler(demo: demo, keys: APIKeys(keys: [], boundToLoopback: true))
        for headers in Self.proxyHeaders {
            #expect(handler.send(.get, "/auth/demo", headers: headers).status == .ok)
        }
    }

    @Test func anonymousWritesOnByDefault_are401ThroughAProxy_andChangeNothing() throws {
        let (handler, service) = handler(demo: nil, keys: APIKeys(keys: [], boundToLoopback: true))
        #expect(APIKeys(keys: [], boundToLoopback: true).writes == .openOnLoopback)
        let id = try #require(service.engine(Orders.self).state.allItems.first { $0.status == .pending }?.id)
        for headers in Self.proxyHeaders {
            let refused = handler.send(.delete, "/orders/\(id)", headers: headers)
            #expect(refused.status == .unauthorized && refused.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            #expect((refused.bodyJSON["detail"] as? String)?.contains("came through a proxy") == true)
            #expect(handler.send(.post, "/orders", headers: headers, json: Order.validCreateBody).status == .unauthorized)
        }
        #expect(service.engine(Orders.self).state.allItems.count == 300, "nothing changed")
        #expect(handler.send(.get, "/orders", headers: Self.proxyHeaders[0]).status == .ok, "reads stay open")
        #expect(handler.send(.delete, "/orders/\(id)").status == .noContent, "a caller on this machine may still write")
    }

    @Test func anonymousWritesAskedFor_stayThroughAProxy() throws {
        let keys = APIKeys(keys: [], boundToLoopback: true, allowsAnonymousWrites: true)
        #expect(keys.writes == .open)
        let (handler, _) = handler(demo: nil, keys: keys)
        #expect(handler.send(.post, "/orders", headers: Self.proxyHeaders[0], json: Order.validCreateBody).status == .created)
    }
}
