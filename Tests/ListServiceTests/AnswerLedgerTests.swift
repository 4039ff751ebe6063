import Basics
import Foundation
import Testing

@testable import ListService

/// The ledger of keyed writes' answers: what a key is admitted to, how long an answer lasts,
/// the bound, and the record storage keeps.
@Suite struct AnswerLedgerTests {
    let time = Locked<Date>(Date(timeIntervalSince1970: 1_800_000_000))
    var clock: @Sendable () -> Date { { [time] in time.withLock { $0 } } }

    func request(_ key: String, owner: String = "sub:c-1", body: String = "a") -> KeyedRequest {
        KeyedRequest(owner: owner, key: key, fingerprint: body)
    }

    func answer(_ request: KeyedRequest, _ ledger: AnswerLedger, body: String = "{}") -> RecordedAnswer {
        RecordedAnswer(
            request: request, collection: "orders", outcome: .created, itemID: "o-1", etag: "\"e\"", body: Array(body.utf8),
            recordedAt: ledger.now)
    }

    @Test func aKey_isAdmittedOnce_untilItsWriteIsAnswered() {
        let ledger = AnswerLedger(clock: clock)
        let first = request("k")
        guard case .proceed = ledger.admit(first) else {
            Issue.record("a new key was not admitted")
            return
        }
        guard case .answered(.failure(let busy)) = ledger.admit(first) else {
            Issue.record("a key in flight was admitted twice")
            return
        }
        #expect(busy.kind == .idempotencyKeyInFlight)
        ledger.record([answer(first, ledger)])
        ledger.release(first)
        guard case .answered(.success(let replayed)) = ledger.admit(first) else {
            Issue.record("the answer was not replayed")
            return
        }
        #expect(replayed.itemID == "o-1")
        guard case .answered(.failure(let reused)) = ledger.admit(request("k", body: "b")) else {
            Issue.record("another request under the key was admitted")
            return
        }
        #expect(reused.kind == .idempotencyKeyReused)
    }

    @Test func keys_belongToTheirOwner() {
        let ledger = AnswerLedger(clock: clock)
        ledger.record([answer(request("k", owner: "sub:c-1"), ledger)])
        guard case .proceed = ledger.admit(request("k", owner: "sub:c-2")) else {
            Issue.record("another owner's key was shared")
            return
        }
        #expect(ledger.answer(to: request("k", owner: "sub:c-1")) != nil)
    }

    @Test func aReleasedKeyWithoutAnswer_isAdmittedAgain() {
        let ledger = AnswerLedger(clock: clock)
        let refused = request("k")
        _ = ledger.admit(refused)
        ledger.release(refused)  // the write was refused: nothing recorded
        guard case .proceed = ledger.admit(refused) else {
            Issue.record("a refused write's key stayed blocked")
            return
        }
    }

    @Test func anAnswer_lastsADay() {
        let ledger = AnswerLedger(clock: clock)
        ledger.record([answer(request("k"), ledger)])
        time.withLock { $0.addTimeInterval(24 * 3600 - 1) }
        #expect(ledger.answer(to: request("k")) != nil)
        time.withLock { $0.addTimeInterval(1) }
        #expect(ledger.answer(to: request("k")) == nil)
        ledger.record([])  // trims
        #expect(ledger.counts.held == 0)
        #expect(ledger.counts.evicted == 0, "expiry is not eviction")
    }

    @Test func pastItsCapacity_theOldestAnswersGo() {
        let ledger = AnswerLedger(capacity: 3, clock: clock)
        for index in 0..<5 {
            ledger.record([answer(request("k\(index)"), ledger)])
            time.withLock { $0.addTimeInterval(1) }
        }
        #expect(ledger.counts == (held: 3, evicted: 2, inFlight: 0))
        #expect(ledger.answer(to: request("k1")) == nil)
        #expect(ledger.answer(to: request("k2")) != nil)
        #expect(ledger.answers(keptWith: "orders").map(\.request.key) == ["k2", "k3", "k4"])
        #expect(ledger.answers(keptWith: "tasks").isEmpty)
    }

    @Test func theRecord_readsBackAsTheSameAnswer() throws {
        let ledger = AnswerLedger(clock: clock)
        let original = answer(request("weird \"key\"", owner: "sub:ü/x"), ledger, body: #"{"name":"Zoë \"K\"","n":[1,2]}"#)
        #expect(try RecordedAnswer(record: original.record, path: "test") == original)
        #expect(
            KeyedRequest(owner: "a/b", key: "c", fingerprint: "").ledgerID != KeyedRequest(owner: "a", key: "b/c", fingerprint: "").ledgerID
        )
    }

    /// Memory storage (`--in-memory`) keeps the answers a later load reads, as a journal does,
    /// but no more than the ledger keeps: before, every keyed write's answer stayed for good
    /// (30,000 keyed writes held ~170 MiB more each round). Past the capacity the oldest go.
    @Test func memoryStorage_keepsTheLedgersNumberOfAnswers_theNewest() throws {
        let ledger = AnswerLedger(clock: clock)
        let storage = MemoryStorage(answerCapacity: 3) { LoadedCollections(stores: [], position: 0, sequences: [:], reports: []) }
        for index in 0..<2_000 {
            _ = storage.append([StoredChange(answer: answer(request("k\(index % 1_000)"), ledger, body: "{\"n\":\(index)}"))], decidedAt: 0)
        }
        let kept = try storage.load().answers
        #expect(kept.count == 3)
        #expect(Set(kept.map(\.request.key)) == ["k997", "k998", "k999"])
        #expect(Set(kept.map { String(decoding: $0.body, as: UTF8.self) }) == [#"{"n":1997}"#, #"{"n":1998}"#, #"{"n":1999}"#])
    }
}
