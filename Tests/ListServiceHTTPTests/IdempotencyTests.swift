import Basics
import Dispatch
import Foundation
import HTTPLite
import ListServiceAuth
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// `Idempotency-Key` through the whole front door: a retry is answered as the first request
/// was and changes nothing; another request under the key is 422; one in flight is 409; keys
/// are per identity; a malformed key is 400 before anything runs; answers last a day.
@Suite struct IdempotencyTests {
    static let anchor = ISO8601.parse("2026-11-20T00:00:00Z") ?? Date()
    let time = Locked<Date>(anchor)
    let service: CollectionService
    let signer = TokenSigner(keyID: "test")
    let handler: ServiceHandler

    init() throws {
        let time = self.time
        service = CollectionService(
            stores: [CollectionState<Orders>(items: DefaultOrders.make(count: 30, anchor: Self.anchor))], log: .discarding,
            clock: { time.withLock { $0 } })
        let signer = try #require(signer)
        handler = ServiceRoutes.makeHandler(
            service: service,
            policy: AccessPolicy(
                hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: true),
                credentials: Credentials(
                    tokens: TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [signer.verificationKey]))), requiresIdentity: false))
        )
    }

    func headers(_ key: String?, as subject: String = "c-0001", role: Identity.Role = .customer) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "Authorization": "Bearer " + (signer?.token(for: Identity(subject: subject, role: role), now: Date(), lifetime: 600) ?? "")
        ]
        if let key { headers.add(name: "Idempotency-Key", value: key) }
        return headers
    }

    var orderCount: Int { service.engine(Orders.self).state.count }

    @Test func aRetry_getsTheFirstAnswer_andCreatesNothing() {
        let first = handler.send(.post, "/orders", headers: headers("k-1"), json: Order.validCreateBody)
        #expect(first.status == .created)
        #expect(first.headers["Idempotent-Replayed"] == nil)
        let count = orderCount
        let retry = handler.send(.post, "/orders", headers: headers("k-1"), json: Order.validCreateBody)
        #expect(retry.status == .created)
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        #expect(retry.headers["Location"] == first.headers["Location"] && first.headers["Location"] != nil)
        #expect(retry.headers["ETag"] == first.headers["ETag"])
        #expect(retry.bodyBytes == first.bodyBytes)
        #expect(orderCount == count)
        let id = first.headers["Location"]?.split(separator: "/").last.map(String.init) ?? ""
        #expect(handler.send(.get, "/orders/\(id)", headers: headers(nil)).headers["ETag"] == first.headers["ETag"], "the row as read")
        // The quoted (structured) form names the same key.
        #expect(
            handler.send(.post, "/orders", headers: headers("\"k-1\""), json: Order.validCreateBody).headers["Location"]
                == first.headers["Location"])
    }

    @Test func anotherRequestUnderTheKey_is422_andChangesNothing() {
        #expect(handler.send(.post, "/orders", headers: headers("k-2"), json: Order.validCreateBody).status == .created)
        let count = orderCount
        let other = handler.send(
            .post, "/orders", headers: headers("k-2"), json: Order.validCreateBody.replacingOccurrences(of: "Mug", with: "Cup"))
        #expect(other.status == .unprocessableContent)
        #expect(other.bodyJSON["code"] as? String == "idempotency-key-reused")
        #expect(other.bodyJSON["parameter"] as? String == "Idempotency-Key")
        #expect(orderCount == count)
    }

    @Test func theQuery_isPartOfTheRequest() {
        let english = handler.send(.post, "/orders", query: [("locale", "en")], headers: headers("k-6"), json: Order.validCreateBody)
        #expect(english.status == .created)
        let german = handler.send(.post, "/orders", query: [("locale", "de")], headers: headers("k-6"), json: Order.validCreateBody)
        #expect(german.status == .unprocessableContent && german.bodyJSON["code"] as? String == "idempotency-key-reused")
    }

    @Test func keys_areEachIdentitys() {
        let alice = handler.send(.post, "/orders", headers: headers("shared"), json: Order.validCreateBody)
        let bob = handler.send(.post, "/orders", headers: headers("shared", as: "c-0002"), json: Order.validCreateBody)
        #expect(alice.status == .created && bob.status == .created)
        #expect(alice.headers["Location"] != bob.headers["Location"])
        #expect(bob.headers["Idempotent-Replayed"] == nil)
    }

    @Test func aDuplicateWhileTheFirstIsInFlight_is409() {
        let gate = DispatchSemaphore(value: 0)
        service.writes.onWriterQueue { gate.wait() }  // the first write waits behind this
        let first = Locked<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler, headers = self.headers("k-3")
        DispatchQueue.global().async {
            first.withLock { $0 = handler.send(.post, "/orders", headers: headers, json: Order.validCreateBody) }
            done.signal()
        }
        for _ in 0..<1000 where service.writes.answers.counts.inFlight == 0 { usleep(2_000) }  // until the first is admitted
        let duplicate = handler.send(.post, "/orders", headers: headers, json: Order.validCreateBody)
        gate.signal()
        #expect(duplicate.status == .conflict)
        #expect(duplicate.bodyJSON["code"] as? String == "idempotency-key-in-flight")
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(first.withLock { $0?.status } == .created)
        #expect(handler.send(.post, "/orders", headers: headers, json: Order.validCreateBody).headers["Idempotent-Replayed"] == "true")
    }

    @Test func aKeyedAction_isReplayedAsFirstAnswered_evenOnceTheItemChanged() throws {
        let pending = try #require(service.engine(Orders.self).state.allItems.first { $0.status == .pending }).id
        let admin = headers("cancel-1", as: "a-1", role: .admin)
        let first = handler.send(.post, "/orders/\(pending)/cancel", headers: admin)
        #expect(first.status == .ok && first.bodyJSON["status"] as? String == "cancelled")
        let renamed = handler.send(
            .patch, "/orders/\(pending)", headers: headers(nil, as: "a-1", role: .admin), json: #"{"customerName":"Ada"}"#)
        #expect(renamed.status == .ok)
        let retry = handler.send(.post, "/orders/\(pending)/cancel", headers: admin)
        #expect(retry.status == .ok && retry.headers["Idempotent-Replayed"] == "true")
        #expect(retry.bodyBytes == first.bodyBytes && retry.headers["ETag"] == first.headers["ETag"])
        #expect(retry.headers["ETag"] != renamed.headers["ETag"])
    }

    @Test func aKeyedImport_isReplayed() {
        let feed = #"""
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"q1","properties":{"mag":4.2,"place":"Near Höfn","time":1794400000000,"updated":1},"geometry":{"type":"Point","coordinates":[-15,64.2,10]}}]}
            """#
        let admin = headers("import-1", as: "a-1", role: .admin)
        let first = handler.send(.post, "/quakes/import", headers: admin, json: feed)
        #expect(first.bodyJSON["inserted"] as? Int == 1)
        let retry = handler.send(.post, "/quakes/import", headers: admin, json: feed)
        #expect(retry.status == .ok && retry.headers["Idempotent-Replayed"] == "true")
        #expect(retry.bodyJSON["inserted"] as? Int == 1, "the first summary, not a second import's")
    }

    @Test(arguments: ["", "\"unterminated", "two words", "\"bad\\escape\"", String(repeating: "k", count: 256), "ключ"])
    func aMalformedKey_is400_beforeAnythingRuns(key: String) {
        let count = orderCount
        let refused = handler.send(.post, "/orders", headers: headers(key), json: Order.validCreateBody)
        #expect(refused.status == .badRequest)
        #expect(refused.bodyJSON["code"] as? String == "invalid-idempotency-key")
        #expect(refused.bodyJSON["parameter"] as? String == "Idempotency-Key")
        #expect(orderCount == count)
    }

    @Test func aRefusedWrite_recordsNothing_soAFixedRetryRuns() {
        let invalid = handler.send(.post, "/orders", headers: headers("k-4"), json: #"{"customerName":""}"#)
        #expect(invalid.status == .unprocessableContent)
        #expect(invalid.bodyJSON["code"] as? String == "validation-failed")
        // A refused write records no answer: the same key may carry the corrected request.
        #expect(handler.send(.post, "/orders", headers: headers("k-4"), json: Order.validCreateBody).status == .created)
    }

    @Test func anAnswer_isReplayedForADay_thenTheKeyIsNew() {
        let first = handler.send(.post, "/orders", headers: headers("k-5"), json: Order.validCreateBody)
        time.withLock { $0.addTimeInterval(23 * 3600) }
        #expect(
            handler.send(.post, "/orders", headers: headers("k-5"), json: Order.validCreateBody).headers["Location"]
                == first.headers["Location"])
        time.withLock { $0.addTimeInterval(3600) }
        let later = handler.send(.post, "/orders", headers: headers("k-5"), json: Order.validCreateBody)
        #expect(later.status == .created && later.headers["Location"] != first.headers["Location"])
    }
}
