import Glibc

/// The answer a connection keeps to send again to a repeat of its request (`RepeatGuard`):
/// the request's bytes, what they parsed to, and the answer, whose head is encoded once, at
/// the first repeat, and then only has its `Date` brought up to date. A class: keeping one
/// and letting it go, once per answer, then cost a reference, not a copy of every part.
final class KeptAnswer {
    /// Requests kept are GETs of at most this many bytes (a head), with no body.
    static let maxRequestBytes = 8 * 1024
    /// A connection that repeats nothing for this long lets its kept answer go (milliseconds):
    /// idle connections do not hold pages the caches have let go.
    static let idleLimit: Int64 = 1_000

    let requestBytes: [UInt8]
    let request: Request
    let response: Response
    let repeatGuard: any RepeatGuard
    let bodyCount: Int
    /// Where its bytes are counted: its body and its request's.
    private let budget: KeptAnswerBudget
    /// The head of a repeat's answer; empty until the first repeat.
    private var head: [UInt8] = []
    /// When the request was last answered (the loop's milliseconds).
    var lastAnswered: Int64

    /// Nil for an answer whose body is not fixed bytes, or whose bytes do not fit in `budget`.
    init?(
        requestBytes: [UInt8], request: Request, response: Response, repeatGuard: any RepeatGuard, now: Int64, budget: KeptAnswerBudget
    ) {
        guard let bodyCount = response.body.fixedCount, budget.take(bodyCount + requestBytes.count) else { return nil }
        (self.requestBytes, self.request, self.response) = (requestBytes, request, response)
        (self.repeatGuard, self.bodyCount, lastAnswered, self.budget) = (repeatGuard, bodyCount, now, budget)
    }

    deinit { budget.give(bodyCount + requestBytes.count) }

    /// Whether `inbound`'s next bytes are the request's.
    func isNext(in inbound: InboundBuffer) -> Bool {
        guard inbound.readableCount >= requestBytes.count else { return false }
        return inbound.withReadableBytes { readable in
            requestBytes.withUnsafeBufferPointer { kept in
                readable.baseAddress.flatMap { next in kept.baseAddress.map { memcmp(next, $0, kept.count) == 0 } } ?? false
            }
        }
    }

    /// Appends the answer again, head and body, to `output`.
    func append(to output: inout OutboundBytes, encoder: inout ResponseEncoder) {
        if head.isEmpty || !encoder.refreshDate(in: &head, status: response.status) {
            var repeated = response
            repeated.headers = repeatGuard.fieldsForRepeats(of: response.headers)
            head = []
            encoder.appendHead(
                for: repeated, bodyCount: bodyCount, connection: request.version == .http1_1 ? .omitted : .keepAlive, to: &head)
        }
        output.append { [head] in $0.append(contentsOf: head) }
        if !response.status.forbidsBody { output.append(fixed: response.body) }
    }
}
