import Basics
import Foundation

/// The answers to keyed writes of the last `lifetime`, at most `capacity` of them (the oldest
/// go first), and the keys whose write is under way in this process. Storage keeps the
/// answers with the writes; the ledger is what a write checks its key against.
package final class AnswerLedger: Sendable {
    /// How long an answer is replayed: 24 hours.
    package static let lifetime: Int64 = 24 * 3600 * 1000
    /// Answers kept at most, by default (about 1 KB each for a row).
    package static let defaultCapacity = 100_000

    package let capacity: Int
    private let clock: @Sendable () -> Date
    private let state = Locked<State>(State())

    private struct State {
        var answers: [String: RecordedAnswer] = [:]
        /// Ids in the order recorded (oldest first from `head`), for expiry and the bound.
        var order: [(id: String, at: Int64)] = []
        var head = 0
        var inFlight: Set<String> = []
        /// Answers dropped for the bound before their lifetime ended.
        var evicted = 0
        /// Answers given again to retries.
        var replayed = 0
    }

    package init(capacity: Int = defaultCapacity, clock: @escaping @Sendable () -> Date = Date.init) {
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// Now, in milliseconds since 1970 (what `RecordedAnswer.recordedAt` holds).
    package var now: Int64 { Int64((clock().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// What a keyed write may do.
    package enum Admission: Sendable {
        /// Go ahead: the key is marked under way until `release`.
        case proceed
        /// The key was answered: this answer again, or the refusal of another request under it.
        case answered(Result<RecordedAnswer, WriteRejection>)
    }

    /// Admits `request`: its answer if it has one, 409 while its first write is under way,
    /// else marks it under way.
    package func admit(_ request: KeyedRequest) -> Admission {
        let now = self.now
        return state.withLock { state in
            let id = request.ledgerID
            if let answer = state.answers[id], answer.recordedAt + Self.lifetime > now {
                return .answered(Self.verdict(answer, for: request, counting: &state.replayed))
            }
            guard state.inFlight.insert(id).inserted else {
                return .answered(
                    .failure(
                        WriteRejection(
                            kind: .idempotencyKeyInFlight,
                            detail: "A request with this Idempotency-Key is still being processed; retry once it is answered.")))
            }
            return .proceed
        }
    }

    /// The key's write is answered: another request under it may go ahead (or replay).
    package func release(_ request: KeyedRequest) {
        _ = state.withLock { $0.inFlight.remove(request.ledgerID) }
    }

    /// The key's answer, or the refusal of another request under it; nil when it has none.
    package func answer(to request: KeyedRequest) -> Result<RecordedAnswer, WriteRejection>? {
        let now = self.now
        return state.withLock { state in
            guard let answer = state.answers[request.ledgerID], answer.recordedAt + Self.lifetime > now else { return nil }
            return Self.verdict(answer, for: request, counting: &state.replayed)
        }
    }

    /// The recorded answer for a retry of the same request, 422 for another request under its key.
    private static func verdict(
        _ answer: RecordedAnswer, for request: KeyedRequest, counting replayed: inout Int
    ) -> Result<RecordedAnswer, WriteRejection> {
        guard answer.request.fingerprint == request.fingerprint else {
            return .failure(
                WriteRejection(
                    kind: .idempotencyKeyReused,
                    detail: "This Idempotency-Key was used for a different request; use a new key for a new request."))
        }
        replayed += 1
        return .success(answer)
    }

    /// Files answers made durable (by this process or read from storage), dropping what expired
    /// and, past the capacity, the oldest.
    package func record(_ answers: some Sequence<RecordedAnswer>) {
        let now = self.now
        state.withLock { state in
            for answer in answers where answer.recordedAt + Self.lifetime > now {
                let id = answer.request.ledgerID
                state.answers[id] = answer
                state.order.append((id, answer.recordedAt))
            }
            Self.trim(&state, now: now, capacity: capacity)
        }
    }

    /// Replaces every answer with storage's (a replica that loaded everything again).
    package func replaceAll(with answers: [RecordedAnswer]) {
        state.withLock { state in
            state.answers = [:]
            state.order = []
            state.head = 0
        }
        record(answers.sorted { $0.recordedAt < $1.recordedAt })
    }

    /// The live answers a collection's journal keeps, oldest first (what a compaction saves).
    package func answers(keptWith collection: String) -> [RecordedAnswer] {
        let now = self.now
        return state.withLock { state in
            state.order[state.head...].compactMap { entry in
                guard let answer = state.answers[entry.id], answer.recordedAt == entry.at, answer.collection == collection,
                    answer.recordedAt + Self.lifetime > now
                else { return nil }
                return answer
            }
        }
    }

    /// Answers held, answers dropped for the bound before their time, and keys whose write is
    /// under way.
    package var counts: (held: Int, evicted: Int, inFlight: Int) {
        state.withLock { ($0.answers.count, $0.evicted, $0.inFlight.count) }
    }

    /// What `/metrics` shows of the ledger.
    package var metricFamilies: [MetricFamily] {
        let (held, evicted, inFlight, replayed) = state.withLock { ($0.answers.count, $0.evicted, $0.inFlight.count, $0.replayed) }
        return [
            MetricFamily("listservice_idempotency_answers", .gauge, "Answers to keyed writes kept for replay (24 h).", held),
            MetricFamily(
                "listservice_idempotency_evicted_total", .counter, "Answers dropped before 24 h because the ledger was full.", evicted),
            MetricFamily("listservice_idempotency_in_flight", .gauge, "Keyed writes under way.", inFlight),
            MetricFamily("listservice_idempotency_replays_total", .counter, "Retries answered with a recorded answer.", replayed),
        ]
    }

    /// Drops expired answers from the front, then the oldest while past `capacity`; keeps
    /// `order` from growing with places already dropped.
    private static func trim(_ state: inout State, now: Int64, capacity: Int) {
        while state.head < state.order.count {
            let entry = state.order[state.head]
            let current = state.answers[entry.id]
            let isStale = current?.recordedAt != entry.at  // replaced by a later answer under the key, or dropped
            let isExpired = entry.at + lifetime <= now
            guard isStale || isExpired || state.answers.count > capacity else { break }
            if !isStale {
                state.answers[entry.id] = nil
                if !isExpired { state.evicted += 1 }
            }
            state.head += 1
        }
        if state.head > 1024 && state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }
}

extension AnswerLedger {
    /// Admits a keyed write (`admit`; an unkeyed one always goes ahead): nil once `report` has
    /// been given the key's answer or refusal (`answered` makes the outcome); else the report
    /// for the write's outcome, which releases the key first.
    package func admitting<Outcome>(
        _ request: KeyedRequest?, _ report: @escaping @Sendable (Outcome) -> Void,
        answered: (Result<RecordedAnswer, WriteRejection>) -> Outcome
    ) -> (@Sendable (Outcome) -> Void)? {
        guard let request else { return report }
        switch admit(request) {
        case .answered(let recorded):
            report(answered(recorded))
            return nil
        case .proceed:
            return { outcome in
                self.release(request)
                report(outcome)
            }
        }
    }
}
